import Foundation
import Core
import Catalogue
import Run
import Stages

/// Renders a `RunReport` as one self-contained HTML page: styles inline, images as data URIs, no external request.
/// Every text that comes from a file, a path or EXIF is escaped.
package struct ReportPage {
    package let report: RunReport
    package let catalogueFolder: String
    package let software: Software
    /// The grid's previews, by photo id (`ReportImages.cards`): made once, before the page is written.
    let cards: [String: Result<CardPreviews<PageImage>, any Error>]

    package init(report: RunReport, catalogueFolder: String, software: Software) {
        self.report = report
        self.catalogueFolder = catalogueFolder
        self.software = software
        cards = ReportImages.cards(for: Array(report.photos.prefix(report.gridLimit)), catalogueFolder: catalogueFolder)
    }

    package func render() -> String {
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>album · \(e(report.run.job)) · run \(report.run.id)</title>
            <style>\(ReportPage.style)</style>
            </head>
            <body>
            <header>
            <h1>\(e(report.run.job)) <span class="muted">run \(report.run.id)</span></h1>
            <p class="status \(e(report.run.status))">\(e(report.run.status))\(report.exitCode >= 0 ? " · exit \(report.exitCode)" : "")</p>
            <dl>
            <dt>started</dt><dd>\(e(Timestamp.local(report.run.started)))</dd>
            <dt>duration</dt><dd>\(report.seconds.map { String(format: "%.1f s", $0) } ?? "unfinished")</dd>
            <dt>software</dt><dd>album \(e(report.run.albumVersion)) · libvips \(e(report.run.vipsVersion)) · SQLite \(e(report.run.sqliteVersion))</dd>
            <dt>host</dt><dd>\(e(report.run.host))</dd>
            <dt>job file</dt><dd>\(e(report.run.jobPath ?? "(none)"))</dd>
            </dl>
            </header>
            <main>
            \(stagesTable())
            \(failuresSection())
            \(statesSection())
            \(gridSection())
            \(slowestSection())
            </main>
            <footer>Made by album \(e(software.album)) from catalogue \(e(catalogueFolder)).</footer>
            </body>
            </html>

            """
        return ReportPage.collapsingTripleNewlines(html)
    }

    /// `text` with every "\n\n\n" (an empty section's blank lines) made one "\n", left to right, as
    /// `replacingOccurrences(of:with:)` would: one pass over the UTF-8 bytes, where Foundation's search went through
    /// UTF-16 over the whole page, data URIs and all.
    static func collapsingTripleNewlines(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 10, i + 2 < bytes.count, bytes[i + 1] == 10, bytes[i + 2] == 10 {
                out.append(10)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func stagesTable() -> String {
        var rows = ""
        for stage in StageRegistry.stepNames {
            guard let counts = report.counts[stage] else { continue }
            // The stage's own pace: its done steps over the busy time (a quick failure is no pace, issue 29); skipped
            // steps are no rows.
            let worked = counts[.done] ?? 0
            let busy = report.stageSeconds[stage] ?? 0
            let rate = worked > 0 && busy > 0 ? String(format: "%.1f", Double(worked) / busy) : "-"
            let skipped = report.skippedCounted ? String(counts[.skipped] ?? 0) : "not counted"
            rows += "<tr><th>\(stage.rawValue)</th><td>\(counts[.done] ?? 0)</td><td>\(skipped)</td>"
                + "<td class=\"\((counts[.failed] ?? 0) > 0 ? "bad" : "")\">\(counts[.failed] ?? 0)</td>"
                + "<td>\(String(format: "%.1f s", busy))</td><td>\(rate)</td></tr>\n"
        }
        return """
            <section><h2>Stages</h2>
            <div class="scroll"><table><thead><tr><th>stage</th><th>done</th><th>skipped</th><th>failed</th><th>busy time</th><th>photos per busy s</th></tr></thead>
            <tbody>\(rows.isEmpty ? "<tr><td colspan=\"6\">no steps</td></tr>" : rows)</tbody></table></div>
            <p>Busy time: the stage's own work (its steps that did something), summed over the workers that ran at once;
            photos per busy second: those steps over it, one worker's pace in the stage.</p></section>
            """
    }

    private func failuresSection() -> String {
        guard !report.failures.isEmpty else { return "<section><h2>Failures</h2><p>None.</p></section>" }
        let items = report.failures.map {
            "<li><code>\(e($0.path))</code> <span class=\"stage\">\($0.stage.rawValue)</span><br>\(e($0.error ?? "failed"))</li>"
        }.joined(separator: "\n")
        return "<section><h2>Failures (\(report.failures.count))</h2><ul class=\"failures\">\n\(items)\n</ul></section>"
    }

    /// The states the run met (counts), and every damaged photo with its reason.
    private func statesSection() -> String {
        let counts = RunSummary.countedStates.compactMap { state in
            report.states[state].flatMap { $0 > 0 ? "<li>\($0) \(state.rawValue)</li>" : nil }
        }
        let damaged = report.damaged.map {
            "<li class=\"damaged\"><code>\(e($0.path))</code> <span class=\"state\">damaged</span><br>\(e($0.damage ?? ""))</li>"
        }
        guard !counts.isEmpty || !damaged.isEmpty else { return "<section><h2>States</h2><p>Every photo ok.</p></section>" }
        return "<section><h2>States</h2><ul class=\"states\">\n\(counts.joined(separator: "\n"))\n</ul>"
            + (damaged.isEmpty ? "" : "<h3>Damaged photos (\(damaged.count))</h3><ul class=\"failures\">\n\(damaged.joined(separator: "\n"))\n</ul>")
            + "</section>"
    }

    private func gridSection() -> String {
        let shown = report.photos.prefix(report.gridLimit)
        var cards = ""
        for photo in shown {
            cards += card(photo) + "\n"
        }
        let skipped = report.counts.values.reduce(0) { $0 + ($1[.skipped] ?? 0) }
        let note = report.photos.count > shown.count
            ? "<p class=\"note\">Showing the first \(shown.count) of \(report.photos.count) photos; every failure is listed above. `album ls` lists them all.</p>"
            : report.photos.isEmpty && skipped > 0
            ? "<p class=\"note\">The run changed no photo: its \(skipped) steps were up to date. `album ls` lists the photos.</p>"
            : ""
        return "<section><h2>Photos (\(report.photos.count))</h2>\(note)<div class=\"grid\">\n\(cards)</div></section>"
    }

    private func card(_ photo: RunReport.Photo) -> String {
        let name = (photo.record.path as NSString).lastPathComponent
        var figures: String
        switch cards[photo.record.id] ?? .failure(StageError("the photo is not in the grid")) {
        case .success(let card):
            if photo.filtered, let before = card.before {
                figures = "<div class=\"pair\"><figure><img loading=\"lazy\" alt=\"before\" \(img(before))><figcaption>before</figcaption></figure>"
                    + "<figure><img loading=\"lazy\" alt=\"after: \(e(photo.record.filter))\" \(img(card.after))><figcaption>after · \(e(photo.record.filter))</figcaption></figure></div>"
            } else {
                figures = "<figure><img loading=\"lazy\" alt=\"\(e(name))\" \(img(card.after))></figure>"
            }
            if let crop = card.crop {
                figures += "<p class=\"meta crop\">cropped as its \(crop.width)×\(crop.height) thumbnail</p>"
            }
        case .failure(let error):
            figures = "<p class=\"missing\">no preview: \(e("\(error)"))</p>"
        }
        // Both, each on its own: `??` binds looser than `+`, so the two optionals are resolved apart.
        let caption = (photo.record.caption.map { "<p class=\"caption\">\(e($0))</p>" } ?? "")
            + (photo.record.damage.map { "<p class=\"state bad\">damaged: \(e($0))</p>" } ?? "")
            + ReportPage.facts(of: photo.record)
        return """
            <article>\(figures)<p class="name" title="\(e(photo.record.path))">\(e(name))</p>\(caption)\
            <p class="meta">\(e(photo.record.taken.map(Timestamp.taken) ?? "undated")) · \(photo.record.width)×\(photo.record.height)\(ReportPage.kind(of: photo.record))</p></article>
            """
    }

    /// XMP's facts on a card, escaped: `★★★★ · Red · beach, Places|Europe|Paris` (a rejected photo: "rejected"),
    /// with the title when it is not the caption already; empty when the photo has none.
    static func facts(of photo: PhotoRecord, escaping e: (String) -> String = ReportPage.escape) -> String {
        var parts: [String] = []
        if let rating = photo.rating, rating != 0 { parts.append(rating < 0 ? "rejected" : String(repeating: "★", count: rating)) }
        if let label = photo.label { parts.append(e(label)) }
        if !photo.keywords.isEmpty { parts.append(e(photo.keywords.joined(separator: ", "))) }
        let title = photo.title.flatMap { $0 == photo.caption ? nil : "<p class=\"caption\">\(e($0))</p>" } ?? ""
        return title + (parts.isEmpty ? "" : "<p class=\"meta xmp\">\(parts.joined(separator: " · "))</p>")
    }

    /// An image's `src` and where its pixels came from (`data-from`: a rendition's kind, or `original`), and the
    /// size it is shown at when a rendition's file is inlined as it is.
    private func img(_ preview: Preview<PageImage>) -> String {
        "data-from=\"\(preview.source)\" src=\"\(preview.value.src)\""
            + (preview.value.shownSize.map { " width=\"\($0.width)\" height=\"\($0.height)\"" } ?? "")
    }

    private func slowestSection() -> String {
        let rows = report.slowest(10).map {
            "<tr><td><code>\(e($0.record.path))</code></td><td>\(String(format: "%.0f ms", $0.milliseconds))</td></tr>"
        }.joined(separator: "\n")
        return "<section><h2>Slowest photos</h2><div class=\"scroll\"><table><tbody>\(rows)</tbody></table></div></section>"
    }

    /// HTML-escapes text for element content and attribute values.
    package func e(_ text: String) -> String { ReportPage.escape(text) }

    package static func escape(_ text: String) -> String {
        text.escapingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": "\u{FFFD}"
            default: nil
            }
        }
    }

    static let style = """
        :root{color-scheme:light dark;--bg:#fafafa;--fg:#1d1d1f;--muted:#6e6e73;--card:#fff;--line:#ddd;--bad:#c62828;--ok:#2e7d32}
        @media (prefers-color-scheme:dark){:root{--bg:#161617;--fg:#f5f5f7;--muted:#a1a1a6;--card:#232325;--line:#3a3a3c;--bad:#ef5350;--ok:#66bb6a}}
        *{box-sizing:border-box}body{margin:0;padding:1rem;font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
        header,main,footer{max-width:1200px;margin:0 auto}h1{margin:.2rem 0;font-size:1.6rem}h2{font-size:1.15rem;margin:1.6rem 0 .6rem}
        .muted,.meta,.note,footer{color:var(--muted)}dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.6rem 0}
        dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}.status{font-weight:600;margin:.2rem 0}.status.ok{color:var(--ok)}
        .status.failed,.status.interrupted,.bad{color:var(--bad)}table{border-collapse:collapse;width:100%;max-width:760px}
        th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid var(--line)}td{font-variant-numeric:tabular-nums}
        code{overflow-wrap:anywhere}.failures li{margin:.4rem 0}.stage{font-size:.8rem;color:var(--muted);margin-left:.4rem}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:.8rem}
        article{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.5rem}
        figure{margin:0;text-align:center}img{max-width:100%;height:auto;border-radius:4px}figcaption{font-size:.75rem;color:var(--muted)}
        .pair{display:grid;grid-template-columns:1fr 1fr;gap:.3rem}.name{font-weight:600;margin:.3rem 0 0;overflow-wrap:anywhere}
        .caption{margin:.1rem 0;font-style:italic}.meta{margin:.1rem 0;font-size:.8rem}.missing{color:var(--bad);font-size:.85rem}
        footer{margin-top:2rem;font-size:.8rem}.scroll{overflow-x:auto}
        """
}
