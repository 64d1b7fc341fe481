import Foundation
import System

/// Path helpers shared by the job loader, the stages and the catalogue.
public enum Paths {
    /// `path` made absolute against `base` (the working directory by default), `~` expanded, `.`/`..` folded.
    public static func absolute(_ path: String, relativeTo base: String? = nil) -> String {
        var path = path
        if path == "~" || path.hasPrefix("~/") {
            path = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst()
        }
        if !path.hasPrefix("/") {
            path = (base ?? FileManager.default.currentDirectoryPath) + "/" + path
        }
        return normalised(path)
    }

    /// Folds `.` and `..` and repeated slashes without touching the file system.
    public static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
