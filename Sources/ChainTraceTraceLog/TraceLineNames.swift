import ChainTrace
import ChainTraceFastPath

/// The names the version 1 traces one reader decodes share: every handler, registry and entry name met so far,
/// found by its bytes, and for each chain the names met in its traces, as one list its traces share (as a
/// compact log's segment shares its names).
///
/// What it buys: a version 1 line names its handlers as text, and each trace built from names made its own
/// dictionary of them, which an analysis then mapped to its handlers again, trace by trace — hashing every
/// hop's name twice. Found by their bytes here (a name's ``NameBytes`` bucket, then one comparison), a log's
/// traces share a list per chain, and an analysis maps it once (``Trace/compactNamesIdentity``). `chaintrace
/// stats` over a version 1 log of 1 M traces (866 MB; `perf stat`, builds with and without it, same output):
/// one thread 2.87 s before, 1.77 s with it; two threads 1.45 s before, 0.84 s with it.
///
/// Bounded: past ``maximumNames`` distinct names the decoder answers `nil` for a line with a new one, and the
/// reader's general path builds its trace, as for any line the fast path leaves.
final class TraceLineNames {
    /// The most distinct names a reader finds by their bytes.
    static let maximumNames = 4096

    /// Every name met, by number, with its bytes.
    private(set) var strings: [String] = []
    private var bytes: [[UInt8]] = []
    /// For each ``NameBytes`` bucket, the numbers of the names in it (nearly always one).
    private var buckets = [[Int]](repeating: [], count: 256)
    /// The names of each chain met so far, and where each chain's list is; `last` is the one the last trace was of.
    private var chains: [ChainNameList] = []
    private var chainIndex: [String: Int] = [:]
    private var last = -1

    /// The number of the name whose UTF-8 bytes are `raw`, made with `table` the first time;
    /// `nil` for the empty name and when ``maximumNames`` are taken.
    func number(of raw: UnsafeBufferPointer<UInt8>, table: NameTable) -> Int? {
        guard let bucket = NameBytes.bucket(of: raw) else { return nil }
        for known in buckets[bucket] where Self.equal(bytes[known], raw) { return known }
        guard strings.count < Self.maximumNames else { return nil }
        strings.append(table.string(for: raw))
        bytes.append(Array(raw))
        buckets[bucket].append(strings.count - 1)
        return strings.count - 1
    }

    private static func equal(_ known: [UInt8], _ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        known.count == raw.count
            && known.withUnsafeBufferPointer { NameBytes.equal($0.baseAddress!, raw.baseAddress!, count: raw.count) }
    }

    /// The place in this reader's lists of the chain called `chain`'s list, made the first time.
    func list(ofChain chain: String) -> Int {
        if last >= 0, chains[last].chain == chain { return last }
        if let known = chainIndex[chain] {
            last = known
        } else {
            chains.append(ChainNameList(chain: chain))
            chainIndex[chain] = chains.count - 1
            last = chains.count - 1
        }
        return last
    }

    /// The index of the reader's name `number` in the list at `list`, added the first time.
    func index(of number: Int, inList list: Int) -> Int {
        chains[list].index(of: number, in: strings)
    }

    /// The list at `list` as it is now, for a trace to share.
    func current(_ list: Int) -> SharedTraceNames {
        chains[list].current()
    }
}
