import ChainTraceCLI

ChainTraceCommand.main()
