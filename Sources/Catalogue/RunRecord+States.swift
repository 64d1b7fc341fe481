import Core

extension RunRecord {
    /// The states the run met, from its recorded counts' `"states"` (`RunSummary.recordedCounts`): damaged photos
    /// it did not retry, missing ones, superseded versions. Empty for a run recorded before states were counted,
    /// or one that never finished.
    public var states: [PhotoState: Int] {
        guard let counts, case .object(let members)? = JSONValue(parsing: counts),
              case .object(let states)? = members.first(where: { $0.0 == "states" })?.1 else { return [:] }
        var found: [PhotoState: Int] = [:]
        for (name, value) in states {
            if let state = PhotoState(rawValue: name), case .int(let n) = value { found[state] = n }
        }
        return found
    }
}
