import Core
import Run

/// The lines a run's summary and a plan print for the photos kept out of the stages by their state
/// (`RunSummary.states`, `Planner.Plan.states`), each with the command that shows or clears them:
/// ```
/// 2 damaged photos, not retried: album ls --state damaged
/// 1 missing photo (its original is gone): album ls --state missing; album prune forgets it
/// ```
enum StatesText {
    static func sentences(_ states: [PhotoState: Int]) -> [String] {
        var lines: [String] = []
        if let n = states[.damaged], n > 0 {
            lines.append("\(n) damaged photo\(n == 1 ? "" : "s"), not retried: album ls --state damaged (album run --retry-damaged retries)")
        }
        if let n = states[.missing], n > 0 {
            lines.append(n == 1
                ? "1 missing photo (its original is gone): album ls --state missing; album prune forgets it"
                : "\(n) missing photos (their originals are gone): album ls --state missing; album prune forgets them")
        }
        if let n = states[.superseded], n > 0 {
            lines.append("\(n) superseded version\(n == 1 ? "" : "s") kept (a newer version, or another photo's bytes, took \(n == 1 ? "its file" : "their files")): album ls --state superseded; album prune forgets \(n == 1 ? "it" : "them")")
        }
        return lines
    }

    /// "2 damaged, 1 missing": the states' counts in a few words (`album runs`), or "-" when there are none.
    static func brief(_ states: [PhotoState: Int]) -> String {
        let parts = RunSummary.countedStates.compactMap { state in
            states[state].flatMap { $0 > 0 ? "\($0) \(state.rawValue)" : nil }
        }
        return parts.isEmpty ? "-" : parts.joined(separator: ", ")
    }
}
