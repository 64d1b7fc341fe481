/// Reading members of JSON album wrote itself (a distributed run's `run.json` and manifests): each accessor answers
/// nil for a value of another kind, so a reader checks what it needs once and says which file is wrong.
extension JSONValue {
    /// The member `key` of an object (the first, should there be several); nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: [(String, JSONValue)]? { if case .object(let value) = self { value } else { nil } }

    /// Two count objects (`runs.counts`: stages, statuses, states) added member by member; a member only one has is
    /// kept, a null stays null unless the other has a number. `takingLargest` names members that count the same
    /// things in each (the superseded versions every chunk of a distributed run sees in its snapshot): the larger wins.
    package func addingCounts(_ other: JSONValue, takingLargest: Set<String> = []) -> JSONValue {
        switch (self, other) {
        case (.int(let a), .int(let b)): return .int(a + b)
        case (.object(let mine), .object(let theirs)):
            var result = mine
            for (key, value) in theirs {
                if let index = result.firstIndex(where: { $0.0 == key }) {
                    if takingLargest.contains(key), case .int(let a) = result[index].1, case .int(let b) = value {
                        result[index].1 = .int(max(a, b))
                    } else {
                        result[index].1 = result[index].1.addingCounts(value, takingLargest: takingLargest)
                    }
                } else {
                    result.append((key, value))
                }
            }
            return .object(result)
        case (.null, _): return other
        default: return self
        }
    }
}
