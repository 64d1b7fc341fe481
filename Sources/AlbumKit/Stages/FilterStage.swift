import System
import Vips

/// `filter`: gives the photo a new look, non-destructively.
///
/// The look is a recipe of filter steps applied to the original's pixels. The stage writes the full-size
/// filtered image as a rendition (JPEG, quality 90, like the gallery app's full images) and records the preset as
/// the photo's `filter`; thumbnails and exports made after it show the look. `preset: none` reverts to the original.
public struct FilterStage: PhotoStage, DeclaredOptions {
    public static let stage = StageName.filter

    /// The preset: a built-in one (none, sepia, noir, vivid) or one from the job's `presets:`.
    public var preset: Preset = Preset(name: "none", recipe: .original)
    /// How the filtered full-size image is stored.
    public var quality: Int = 90
    public var select: Selection? = nil

    public init() {}

    /// Every option, declared once: the job file's keys, the parameters hashed into each filtered image's name, the
    /// docs. `intensity`, `amount` and `contrast` tune a built-in preset's primitive, so they are in the recipe.
    public static let options: [StageOption<FilterStage>] = [
        StageOption("preset", .preset(\.preset)),
        StageOption("intensity", .tuning(preset: "sepia", primitive: Sepia.self)),
        StageOption("amount", .tuning(preset: "vivid", primitive: Vivid.self)),
        StageOption("contrast", .tuning(preset: "noir", primitive: Noir.self)),
        StageOption("quality", .recorded(\.quality)),
        .selection(\.select),
    ]

    public func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
        let photoID = work.photo.id
        let input = work.photo.hash
        let recipeText = preset.recipe.canonical.text
        if preset.recipe.isEmpty {
            let wasFiltered = work.photo.filter != "none"
            if wasFiltered || work.photo.filterRecipe != recipeText {
                try context.catalogue { try $0.setFilter(photo: photoID, name: "none", recipe: recipeText) }
            }
            work.photo.filter = "none"
            work.photo.filterRecipe = recipeText
            work.recipe = .original
            return wasFiltered ? .done(input: input, output: input) : .skipped("already the original look", input: input, output: input)
        }
        let parametersHash = context.parametersHash(stage: .filter, parameters: parameters)
        let existing = try upToDate(work, context: context)
        work.recipe = preset.recipe
        let name = preset.name
        let needsRecord = work.photo.filter != name || work.photo.filterRecipe != recipeText
        work.photo.filter = name
        work.photo.filterRecipe = recipeText
        if !context.force, let existing {
            work.filtered = (existing, quality)
            // The look's image is already there, but switching the photo to it is a change: done, not skipped.
            guard needsRecord else { return .skipped("up to date", input: input, output: existing.fileHash) }
            try context.catalogue { try $0.setFilter(photo: photoID, name: name, recipe: recipeText) }
            return .done(input: input, output: existing.fileHash)
        }
        let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
        let rendered = try LookRenderer.renderFullSize(of: bytes, recipe: preset.recipe, maxSize: nil, format: .jpeg, quality: quality,
                                                       metadata: .stripGPS, failOn: context.failOn, reserve: context.withPixels)
        let path = RenditionFile.path(in: context.catalogueFolder, area: "filtered", photo: photoID, parametersHash: parametersHash,
                                      inputHash: input, extension: "jpg")
        let rendition = try RenditionFile.write(rendered, to: path, kind: .filtered, photo: photoID,
                                                parametersHash: parametersHash, inputHash: input, context: context)
        try context.catalogue { catalogue in
            try catalogue.record(rendition)
            try catalogue.setFilter(photo: photoID, name: name, recipe: recipeText)
        }
        work.filtered = (rendition, quality)
        return .done(input: input, output: rendition.fileHash)
    }

    public func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool {
        // As `run` decides: the original look is skipped unless the photo had another one; a look is skipped when
        // its filtered image is recorded and intact and the photo already has it (a switch to it is done).
        let recipeText = preset.recipe.canonical.text
        let skipped = try preset.recipe.isEmpty
            ? work.photo.filter == "none"
            : upToDate(work, context: context) != nil && work.photo.filter == preset.name && work.photo.filterRecipe == recipeText
        work.recipe = preset.recipe
        work.photo.filter = preset.name
        work.photo.filterRecipe = recipeText
        return skipped
    }

    /// The recorded filtered image of this preset on the photo's original, when its file is intact.
    private func upToDate(_ work: PhotoWork, context: StageContext) throws -> Rendition? {
        let photoID = work.photo.id, input = work.photo.hash
        let parametersHash = context.parametersHash(stage: .filter, parameters: parameters)
        let existing = try context.renditions(of: photoID)
            .last { $0.kind == .filtered && $0.parametersHash == parametersHash && $0.inputHash == input }
        return existing.flatMap { RenditionFile.isIntact($0) ? $0 : nil }
    }
}
