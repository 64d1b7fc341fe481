import System

/// The identity of a photo's look: what thumbnails and exports of the look record as their input hash, and what
/// `album prune` compares them with. One rule, for the stages (`PhotoWork.lookHash`) and the catalogue
/// (`PhotoRecord.lookHash`).
///
/// ```
/// LookHash.of(original: photo.hash, recipe: "[]")                          // the original's hash itself
/// LookHash.of(original: photo.hash, recipe: #"[{"sepia":{"amount":0.85}}]"#) // SHA-256 of "HASH\n[{…}]"
/// ```
public enum LookHash {
    /// The canonical JSON of the original look, a recipe with no steps (the schema's default for `filter_recipe`).
    public static let originalRecipe = "[]"

    /// The look's hash from the original's SHA-256 and the recipe's canonical JSON.
    public static func of(original: String, recipe: String) -> String {
        recipe == originalRecipe ? original : SHA256.ofOwnText(original + "\n" + recipe)
    }
}
