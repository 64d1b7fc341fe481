import Core
import YAML

extension ImportStage: PhotoSource, RegisteredStage {
    public static let stage = StageName.import

    public init(from roots: [String]) {
        self.init()
        from = roots
    }

    /// `- import: {from: photos}`: the options its table declares; `from` is required.
    package static func read<File: StageFileReading>(_ node: Node, from file: inout File, after _: [any PhotoStage]) -> ImportStage? {
        guard let entries = file.reader.mapping(node, "import") else { return nil }
        file.checkOptionKeys(entries, of: ImportStage.self, in: "import")
        var stage = ImportStage()
        file.readOptions(entries, into: &stage, in: "import")
        if !entries.contains(where: { $0.0 == "from" }) {
            file.reader.error(node, "import needs 'from': the folder (or list of folders) to import photos from")
        }
        return stage
    }
}
