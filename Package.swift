// swift-tools-version:6.0
import PackageDescription

// Release builds of the pixel modules run without overflow checks: the hot loops use wrapping
// arithmetic already, and -Ounchecked lets the optimizer vectorize the rest (measured ~25%).
let uncheckedInRelease: [SwiftSetting] = [
    .unsafeFlags(["-Ounchecked", "-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

// The optimizer inlines nothing into a function of more than 400 blocks, @inline(__always) or
// not; the stroke rasterizer (`StrokeEngine.stamp`) is larger, so `raise` was a call for every
// run of every row. 2.6-2.9 % of the engine's instructions per motion event (callgrind,
// BENCHMARKS "The engine per event (session 5)"), same pixels, no larger binary.
let inlineIntoLargeFunctions: [SwiftSetting] = [
    .unsafeFlags(["-Xllvm", "-sil-inline-overall-caller-block-limit=2000"], .when(configuration: .release))
]

let package = Package(
    name: "SwiftPaint",
    products: [
        .executable(name: "swiftpaint", targets: ["swiftpaint"]),
        .executable(name: "paint-bench", targets: ["paint-bench"]),
    ],
    targets: [
        // System libraries: Debian's -dev packages, found through pkg-config. Nothing is fetched.
        .systemLibrary(
            name: "CX11", pkgConfig: "x11 xext xft xrender xi xcursor x11-xcb xcb-present",
            providers: [
                .apt([
                    "libx11-dev", "libxext-dev", "libxft-dev", "libxrender-dev", "libxi-dev", "libxcursor-dev",
                    "libx11-xcb-dev", "libxcb-present-dev",
                ])
            ]),
        .systemLibrary(
            name: "CXTest", pkgConfig: "xtst",
            providers: [.apt(["libxtst-dev"])]),
        // libpng only as the tests' independent reference decoder; the program reads and writes
        // PNG through libspng.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CSPNG", pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]),
        .systemLibrary(
            name: "CLCMS2", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CGIF",
            providers: [.apt(["libgif-dev"])]),
        // libjpeg behind C functions that keep its setjmp/longjmp error handling inside C.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The window icon as the _NET_WM_ICON property's value, decoded from its PNGs by `make
        // icons` (resources/icons/window-icon-source.py): nothing to decode at start-up. Its
        // debug information is DWARF 4: valgrind 3.19 (Debian 12's) gives up on a program with
        // this second C unit in DWARF 5 ("Possibly corrupted debuginfo file"), and `make valgrind`
        // and callgrind need to read it.
        .target(name: "CWindowIcon", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Opaque 8-bit RGB rows into pixels with SSSE3's byte shuffle, chosen at run time (Swift
        // cannot ask for SSSE3 in one function); DWARF 4 for valgrind, as CWindowIcon.
        .target(name: "CRGBRow", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),
        // SHA-256 for the history store's entry names (HistoryKey), from libcrypto, linked
        // statically (shim.h says why): no pkg-config, whose flags link the shared one.
        .systemLibrary(
            name: "CSHA256",
            providers: [.apt(["libssl-dev"])]),
        // glibc's <malloc.h> (mallopt), for the program's memory tuning; part of libc.
        .systemLibrary(name: "CMalloc"),
        // Cache prefetch hints for the engine's row loops (a header of static inline functions).
        .systemLibrary(name: "CPrefetch"),
        .systemLibrary(
            name: "CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),

        // The pure engine: pixels, rasterizing, compositing, history (zlib for its cold
        // snapshots, pixman for scaling the picture). No X11, no files.
        .target(
            name: "PaintCore", dependencies: ["CZlib", "CPixman", "CPrefetch"],
            swiftSettings: uncheckedInRelease + inlineIntoLargeFunctions),
        // Text: font families and files from fontconfig, bidi runs from FriBidi, shaping with
        // HarfBuzz, glyphs rasterized by FreeType into a coverage mask for the engine.
        .target(
            name: "PaintText", dependencies: ["PaintCore", "CFontconfig", "CFreeType", "CHarfBuzz", "CFriBidi"],
            swiftSettings: uncheckedInRelease),
        // Files: pictures in and out (PNG, JPEG, WebP, GIF, BMP; color profiles through lcms2),
        // atomic writes, the crash journal, the history chunk and store (SHA-256 from libcrypto).
        .target(
            name: "PaintIO",
            dependencies: ["PaintCore", "CSPNG", "CLCMS2", "CWebP", "CGIF", "CJPEG", "CRGBRow", "CZlib", "CSHA256"]),
        // The program's behaviour without a window: tools, toolbar layout and drawing, keys,
        // documents, saving. Platform-free input events in, pixels and effects out.
        // Release builds without the run-time exclusivity checks, as PaintCore and PaintX11: the
        // Session's properties were checked ~30 times per motion event (swift_beginAccess, ~2,500
        // instructions, BENCHMARKS "The window's own work per motion event (session 6)"). Debug
        // builds, which the tests run, keep them.
        .target(
            name: "PaintApp", dependencies: ["PaintCore", "PaintIO", "PaintText"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Opening a connection to an X server, for the program and the tests alike: one whose
        // loss never exits the process from inside Xlib, opened under one process-wide lock.
        .target(name: "XConnect", dependencies: ["CX11"]),
        // The only code that talks to the X server.
        .target(
            name: "PaintX11", dependencies: ["PaintCore", "PaintIO", "PaintApp", "CX11", "CWindowIcon", "XConnect"],
            swiftSettings: uncheckedInRelease),
        // The release program carries the Swift runtime inside (static, as `--static-swift-stdlib`
        // links it): 2 MB less resident memory and 1-3 ms less CPU before the first frame (no
        // seven libswift*.so to map and relocate), and an installed binary that runs without the
        // toolchain's /opt/swift. 11 MB more on disk; CPU per motion event the same (BENCHMARKS
        // "The window's own work per motion event (session 6)"). Debug builds (the tests) link it
        // as before.
        .executableTarget(
            name: "swiftpaint", dependencies: ["PaintCore", "PaintIO", "PaintApp", "PaintX11", "CMalloc"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        .executableTarget(
            name: "paint-bench",
            dependencies: ["PaintCore", "PaintIO", "PaintApp", "PaintText", "CX11", "CXTest", "XDriver"]),

        // Helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["PaintCore"], path: "Tests/TestSupport"),
        // The end-to-end tests' and paint-bench's one X driver: Xvfb, XTest input and XGetImage
        // read-back (child processes and polling waits are TestSupport's).
        .target(name: "XDriver", dependencies: ["PaintCore", "CX11", "CXTest", "TestSupport", "XConnect"]),
        .testTarget(name: "PaintCoreTests", dependencies: ["PaintCore", "TestSupport"]),
        .testTarget(name: "PaintTextTests", dependencies: ["PaintCore", "PaintText", "CFreeType", "TestSupport"]),
        .testTarget(name: "PaintIOTests", dependencies: ["PaintCore", "PaintIO", "CPNG", "CWebP", "TestSupport"]),
        .testTarget(
            name: "PaintAppTests", dependencies: ["PaintCore", "PaintIO", "PaintText", "PaintApp", "TestSupport"]),
        .testTarget(name: "PaintX11Tests", dependencies: ["PaintX11", "PaintApp", "CX11"]),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "PaintCore", "PaintIO", "PaintText", "PaintApp", "PaintX11", "CX11", "CXTest", "TestSupport",
                "XDriver", "XConnect",
            ]),
    ]
)
