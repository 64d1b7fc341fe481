import Core

/// A catalogue photo is what `select:` and `album ls` select.
extension PhotoRecord: SelectablePhoto {}
