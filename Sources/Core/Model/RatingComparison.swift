import Foundation

/// A comparison of a photo's XMP rating (`select: {rating: ">= 4"}`, `album ls --rating '>=4'`): an operator and a
/// rating from -1 (rejected) to 5. A photo with no rating counts as 0, XMP's "unrated".
///
/// ```
/// try RatingComparison(parsing: ">= 4")   // rating 4 or 5
/// try RatingComparison(parsing: "5")      // exactly 5
/// try RatingComparison(parsing: "< 0")    // rejected photos (-1)
/// ```
public struct RatingComparison: Sendable, Equatable, CustomStringConvertible {
    public enum Operator: String, Sendable, CaseIterable {
        case atLeast = ">=", atMost = "<=", above = ">", below = "<", equal = "=", notEqual = "!="
    }

    public var op: Operator
    public var rating: Int

    public init(_ op: Operator, _ rating: Int) {
        self.op = op
        self.rating = rating
    }

    /// `>= 4`, `>4`, `= 5`, `5`, `!= 0`, with or without spaces.
    /// - Throws: `StageError` saying what is expected and what was given.
    public init(parsing written: String) throws {
        let text = written.trimmingCharacters(in: .whitespaces)
        // The longest operator first, so that ">=" is not read as ">" followed by "=4".
        let op = Operator.allCases.sorted { $0.rawValue.count > $1.rawValue.count }.first { text.hasPrefix($0.rawValue) }
        let number = String(text.dropFirst(op?.rawValue.count ?? 0)).trimmingCharacters(in: .whitespaces)
        guard let rating = Int(number), (-1...5).contains(rating) else {
            throw StageError("'\(written)' is not a rating comparison: write an operator (>=, <=, >, <, =, !=) and a rating from -1 to 5, such as \">= 4\", or a rating alone, such as 5")
        }
        self.init(op ?? .equal, rating)
    }

    /// Whether a photo with this rating (nil: unrated, counted as 0) is selected.
    public func matches(_ value: Int?) -> Bool {
        let value = value ?? 0
        switch op {
        case .atLeast: return value >= rating
        case .atMost: return value <= rating
        case .above: return value > rating
        case .below: return value < rating
        case .equal: return value == rating
        case .notEqual: return value != rating
        }
    }

    /// ">= 4", as written in a job file.
    public var description: String { "\(op.rawValue) \(rating)" }
}
