// Built with the package trait `Packages` (on by default, through `Server`); without it the module is empty.
#if Packages
    /// Orders version strings "the semantic-versioning way", tolerant of what people actually publish.
    ///
    /// - A leading `v` or `V` is ignored; build metadata after `+` is ignored (`1.2+7` == `1.2`).
    /// - The part before the first `-` is split at `.`; components compare numerically when both are
    ///   digits (`1.10` > `1.9`, any length), else as strings; digits sort before letters.
    ///   Missing components count as 0 (`1.2` == `1.2.0`).
    /// - A pre-release (the part after `-`) sorts before the release (`2.0-beta` < `2.0`); pre-releases
    ///   compare identifier by identifier as in Semantic Versioning 2.0.0 §11.
    enum VersionOrder {
        /// Negative when `a` < `b`, zero when they are the same version, positive when `a` > `b`.
        static func compare(_ a: String, _ b: String) -> Int {
            let (coreA, preA) = split(a)
            let (coreB, preB) = split(b)
            for index in 0..<max(coreA.count, coreB.count) {
                let x = index < coreA.count ? coreA[index] : "0"
                let y = index < coreB.count ? coreB[index] : "0"
                let result = compareIdentifiers(x, y)
                if result != 0 { return result }
            }
            switch (preA, preB) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let x?, let y?):
                for (p, q) in zip(x, y) {
                    let result = compareIdentifiers(p, q)
                    if result != 0 { return result }
                }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }

        private static func split(_ version: String) -> (core: [Substring], prerelease: [Substring]?) {
            var text = Substring(version)
            if text.first == "v" || text.first == "V" { text = text.dropFirst() }
            if let plus = text.firstIndex(of: "+") { text = text[..<plus] }
            var prerelease: [Substring]?
            if let dash = text.firstIndex(of: "-") {
                prerelease = text[text.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
                text = text[..<dash]
            }
            return (text.split(separator: ".", omittingEmptySubsequences: false), prerelease)
        }

        private static func compareIdentifiers(_ x: Substring, _ y: Substring) -> Int {
            let xNumeric = !x.isEmpty && x.allSatisfy(\.isASCIIDigit)
            let yNumeric = !y.isEmpty && y.allSatisfy(\.isASCIIDigit)
            switch (xNumeric, yNumeric) {
            case (true, true):
                let p = x.drop { $0 == "0" }
                let q = y.drop { $0 == "0" }
                if p.count != q.count { return p.count < q.count ? -1 : 1 }
                return p == q ? 0 : (p < q ? -1 : 1)
            case (true, false): return -1
            case (false, true): return 1
            case (false, false): return x == y ? 0 : (x < y ? -1 : 1)
            }
        }
    }

    extension Character {
        fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    }
#endif
