// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "album",
    products: [
        .executable(name: "album", targets: ["album"]),
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
        /// libraw, the camera RAW reader (libraw_r, its thread-safe build): identify, embedded previews, decoding
        /// (seen only by Raw). Its module map links `raw_r` and its header is in the default path: Debian's
        /// `pkg-config libraw_r` adds `-fopenmp`, a flag SwiftPM refuses (libraw_r's own shared library needs libgomp).
        .systemLibrary(
            name: "CRaw",
            path: "Sources/Raw/CRaw"
        ),
        /// libxml2, the XML parser libvips already links: XMP packets and sidecars, never with entities, DTDs or the
        /// network (seen only by XMP).
        .systemLibrary(
            name: "CXML",
            path: "Sources/XMP/CXML",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        /// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil): the demuxer, the decoders, the scaler,
        /// with `static inline` shims for their macros (seen only by Video).
        .systemLibrary(
            name: "CAV",
            path: "Sources/Video/CAV",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
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
        /// The libraw wrapper: a camera RAW's identity, its embedded preview and its decoded pixels. The only Swift that
        /// sees libraw.
        .target(
            name: "Raw",
            dependencies: ["CRaw", "System"],
            path: "Sources/Raw/Wrapper"
        ),
        /// The libxml2 wrapper and the XMP reader on it: rating, label, keywords, title, description and capture time
        /// from a sidecar or a photo's embedded packet. The only Swift that sees libxml2.
        .target(
            name: "XMP",
            dependencies: ["CXML"],
            path: "Sources/XMP/Wrapper"
        ),
        /// The FFmpeg wrapper: a video's header (size, rotation, aspect, duration, codec, tags) and a frame decoded at a
        /// time, as RGB. The only Swift that sees FFmpeg.
        .target(
            name: "Video",
            dependencies: ["CAV", "System"],
            path: "Sources/Video/Wrapper"
        ),
        // album's own layers, lowest first. Each depends only on layers below it (ARCHITECTURE.md); an import of a
        // target that is not a declared dependency fails the build (`make build` passes
        // `--explicit-target-dependency-import-check error`).

        /// The shared vocabulary and small pieces every layer uses: JSON, console output, timestamps, paths, stage
        /// names, selections, photo states, exit codes and the one mapping from an error to the sentence a user reads.
        .target(name: "Core", dependencies: ["System"]),
        /// The in-house YAML 1.2 subset parser, its diagnostics (`file:line:col`), and typed reads of its node tree.
        .target(name: "YAML", dependencies: ["Core"]),
        /// The catalogue's store: one SQLite database and its folders; records declared once, the schema, the lock, stored
        /// paths, and the reader and writer types.
        .target(name: "Catalogue", dependencies: ["Core", "System", "SQLite"]),
        /// The services above the catalogue's store: prune, verify, gc and the merge of a chunk, each a type that takes a
        /// reader or a writer.
        .target(name: "Maintenance", dependencies: ["Core", "Catalogue", "System", "SQLite"]),
        /// Pixels: formats, metadata, filter primitives and recipes, and the libvips pipelines that render a look.
        .target(name: "Media", dependencies: ["Core", "System", "Vips", "Exif", "Raw", "XMP", "Video"]),
        /// The stages a job chains (import, filter, thumbnail, export), their options, and what one photo carries
        /// through them.
        .target(name: "Stages", dependencies: ["Core", "YAML", "Catalogue", "Media", "System", "Vips", "XMP"]),
        /// The job file: loading, `${NAME}` expansion, and building a checked `Job` from the YAML tree.
        .target(name: "JobFile", dependencies: ["Core", "YAML", "Media", "Stages", "System", "Vips"]),
        /// The scheduler and the run model: work queues, the pixel budget, the catalogue's serial owner, signals.
        /// The only layer with threads and queues.
        .target(name: "Run", dependencies: ["Core", "Catalogue", "Media", "Stages", "JobFile", "System", "Vips", "SQLite"]),
        /// The HTML report of a run: previews, contact sheets, the page.
        .target(name: "Report", dependencies: ["Core", "Catalogue", "Media", "Stages", "Run", "System", "Vips"]),
        /// `album plan`: what a run would do, decided by the run's own rules without writing anything.
        .target(name: "Plan", dependencies: ["Core", "Catalogue", "Media", "Stages", "JobFile", "Run", "System"]),
        /// A whole run of a job: set up, checks before the first photo, the scheduler, the run row, the report.
        .target(name: "Service", dependencies: ["Core", "Catalogue", "Stages", "JobFile", "Run", "Report", "Plan", "System", "Vips", "SQLite"]),
        /// Runs split into chunks on Slurm or Kubernetes: plans, chunk catalogues, launches and merges.
        .target(name: "Cluster", dependencies: ["Core", "Catalogue", "Maintenance", "Stages", "JobFile", "Run", "Plan", "Service", "System"]),
        /// The command line: every `album` command, its options, help, completions, man page and output.
        .target(
            name: "Commands",
            dependencies: ["Core", "YAML", "Catalogue", "Maintenance", "Media", "Stages", "JobFile", "Run", "Report", "Plan",
                           "Service", "Cluster", "System", "Vips", "SQLite"]
        ),
        /// The `album` command: hands its arguments to `Commands` and exits with the status it returns.
        .executableTarget(
            name: "album",
            dependencies: ["Core", "Commands", "System"]
        ),
        /// `make bench`'s catalogue write throughput (issue 7): step rows through the scheduler's `CatalogueOwner`.
        .executableTarget(
            name: "album-catalogue-bench",
            dependencies: ["Core", "Catalogue", "Run", "System"],
            path: "Benchmarks/CatalogueBench"
        ),
        .testTarget(
            name: "AlbumTests",
            dependencies: ["Core", "YAML", "Catalogue", "Maintenance", "Media", "Stages", "JobFile", "Run", "Report", "Plan",
                           "Service", "Cluster", "Commands", "System", "Vips", "SQLite", "Exif", "Raw", "XMP", "Video"],
            exclude: ["Support/make_dng.py", "Support/heif_rotate.py"],
            resources: [.copy("YAML/Corpus"), .copy("Golden")]
        ),
    ]
)
