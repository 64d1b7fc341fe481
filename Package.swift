// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "album",
    products: [
        .executable(name: "album", targets: ["album"]),
        .library(name: "AlbumKit", targets: ["AlbumKit"]),
    ],
    targets: [
        /// libvips' C API, with static inline shims for its varargs functions.
        .systemLibrary(
            name: "CVips",
            path: "Sources/Vips/CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        /// libjpeg's decompressor, for the check of a JPEG's data that libvips 8.14 does not make (seen only by Vips).
        .systemLibrary(
            name: "CJPEG",
            path: "Sources/Vips/CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        /// libcrypto's SHA-256, used to identify photos by their bytes (seen only by System).
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/System/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        /// glibc headers Swift's Glibc module leaves out: extended attributes (seen only by System).
        .systemLibrary(
            name: "CSystem",
            path: "Sources/System/CSystem"
        ),
        /// SQLite's C API, with shims for the macros Swift cannot import.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/SQLite/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        /// libexif, the EXIF reader libvips itself uses: a field's stored bytes, whole (seen only by Exif).
        .systemLibrary(
            name: "CExif",
            path: "Sources/Exif/CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        /// Every libc call album makes: file bytes and their SHA-256, native paths, stat, directory listings, atomic
        /// writes, the flock lock, unlink, fnmatch, the standard streams, signals. The only Swift that sees libcrypto.
        .target(
            name: "System",
            dependencies: ["CCrypto", "CSystem"],
            path: "Sources/System/Wrapper"
        ),
        /// The libvips wrapper: images, loaders, savers, errors, and libjpeg's own check of a JPEG's data. The only
        /// Swift that sees libvips and libjpeg.
        .target(
            name: "Vips",
            dependencies: ["CVips", "CJPEG", "System"],
            path: "Sources/Vips/Wrapper"
        ),
        /// The SQLite wrapper: a connection, statements, transactions and errors. The only Swift that sees SQLite.
        .target(
            name: "SQLite",
            dependencies: ["CSQLite"],
            path: "Sources/SQLite/Wrapper"
        ),
        /// The libexif wrapper: a photo's EXIF block and the fields album reads from it. The only Swift that sees libexif.
        .target(
            name: "Exif",
            dependencies: ["CExif"],
            path: "Sources/Exif/Wrapper"
        ),
        /// All of album's logic: job files, plans, stages, the scheduler, the catalogue and the commands.
        .target(
            name: "AlbumKit",
            dependencies: ["System", "Vips", "SQLite", "Exif"]
        ),
        /// The `album` command: hands its arguments to AlbumKit and exits with the status it returns.
        .executableTarget(
            name: "album",
            dependencies: ["AlbumKit"]
        ),
        /// `make bench`'s catalogue write throughput (issue 7): step rows through the scheduler's `CatalogueOwner`.
        .executableTarget(
            name: "album-catalogue-bench",
            dependencies: ["AlbumKit"],
            path: "Benchmarks/CatalogueBench"
        ),
        .testTarget(
            name: "AlbumKitTests",
            dependencies: ["AlbumKit", "System", "Vips", "SQLite", "Exif"],
            resources: [.copy("YAML/Corpus"), .copy("Golden")]
        ),
    ]
)
