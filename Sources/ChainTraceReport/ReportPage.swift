import ChainTrace
import ChainTraceGraphviz
import ChainTraceJSON

/// A report's HTML: the skeleton the script fills, the diagrams as SVG markup (drawn by Graphviz, which escapes
/// every label), the data as a JSON block no string can end early, and a Content-Security-Policy that allows the
/// page's own script and style by hash and nothing else — no network, no inline event handlers, no other script.
struct ReportPage {
    var title: String
    var data: JSONValue
    var diagram: String
    var diffDiagram: String?

    var html: String {
        let script = ReportScript.javaScript
        let style = ReportStyle.css
        let policy = [
            "default-src 'none'",
            "script-src 'sha256-\(SHA256.base64Digest(script.utf8))'",
            "style-src 'sha256-\(SHA256.base64Digest(style.utf8))'",
            "img-src data:", "base-uri 'none'", "form-action 'none'",
        ].joined(separator: "; ")
        var page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTMLText.escaped(VisibleText.escaped(title)))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header>
            <h1 id="title">ChainTrace report</h1>
            <div id="source" class="muted"></div>
            </header>
            <main>
            <section id="overview" aria-label="Overview"></section>
            <section id="centre">
            <div>
            <div class="toolbar"><button type="button" id="zoom" class="link">actual size</button></div>
            <div id="diagram" class="diagram" aria-label="Chain diagram">
            """
        page += diagram
        page += """
            </div>
            </div>
            <aside id="panel" aria-live="polite" aria-label="Details"></aside>
            </section>
            <section aria-labelledby="handlers-title">
            <h2 id="handlers-title">Handlers</h2>
            <div class="table-wrap"><table id="handlers" class="grid"></table></div>
            </section>
            <section aria-labelledby="commands-title">
            <h2 id="commands-title">Commands</h2>
            <div id="filters">
            <label>kind<select id="filter-kind"><option value="">any</option></select></label>
            <label>outcome<select id="filter-outcome"><option value="">any</option><option value="accepted">accepted</option><option value="fell off the end">fell off the end</option><option value="failed">failed</option></select></label>
            <label>visited<select id="filter-visited"><option value="">any handler</option></select></label>
            <label>accepted by<select id="filter-taker"><option value="">any handler</option></select></label>
            <label>id or number<input id="filter-id" type="search" placeholder="text in the id"></label>
            <label class="inline"><input id="filter-slow" type="checkbox"> slow only</label>
            </div>
            <div id="list-count"></div>
            <div id="command-list" class="list" tabindex="0" role="listbox" aria-label="Commands"></div>
            </section>
            <section id="compare-section" hidden aria-labelledby="compare-title">
            <h2 id="compare-title">Compare</h2>
            <p id="compare-summary"></p>
            <div id="diff-diagram" class="diagram" aria-label="What changed">
            """
        page += diffDiagram ?? ""
        page += """
            </div>
            <div id="divergences" role="listbox" aria-label="Changed commands"></div>
            <div id="side-by-side"></div>
            </section>
            </main>
            <script type="application/json" id="chaintrace-data">
            """
        page += HTMLText.scriptSafeJSON(data)
        page += "</script>\n<script>\(script)</script>\n</body>\n</html>\n"
        return page
    }
}

/// Escapes for the two places data meets markup.
enum HTMLText {
    /// `text` for an element's content or an attribute value: `&`, `<`, `>`, `"` and `'` as entities.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let entity = DOTText.markupEntity(of: scalar) {
                out += entity
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `value` as JSON that can sit inside a `<script>` element: `<`, `>` and `&` (so no `</script>` or `<!--`
    /// can occur) and U+2028/U+2029 written as `\u` escapes. They only ever occur inside strings, so the JSON
    /// means the same.
    static func scriptSafeJSON(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        var out: [UInt8] = []
        out.reserveCapacity(writer.bytes.count + writer.bytes.count / 16)
        let bytes = writer.bytes
        var index = 0
        func escape(_ text: String) { out.append(contentsOf: text.utf8) }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): escape("\\u003c")
            case UInt8(ascii: ">"): escape("\\u003e")
            case UInt8(ascii: "&"): escape("\\u0026")
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
                escape(bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 2
            default: out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
