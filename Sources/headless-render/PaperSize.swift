// Built when at least one engine is (package traits `WebKitGTK`, `Chromium`, `Firefox`).
#if WebKitGTK || Chromium || Firefox
    import ArgumentParser
    import Foundation

    /// The paper of `--pdf`: a named size or `WIDTHxHEIGHT` with a unit, kept in centimetres (the
    /// unit every engine's PDF call takes here).
    struct PaperSize: Equatable, CustomStringConvertible {
        /// Width in centimetres.
        var width: Double
        /// Height in centimetres.
        var height: Double

        static let letter = PaperSize(width: 21.59, height: 27.94)

        /// Named sizes, in centimetres.
        static let named: [String: PaperSize] = [
            "letter": .letter, "legal": PaperSize(width: 21.59, height: 35.56),
            "tabloid": PaperSize(width: 27.94, height: 43.18), "a3": PaperSize(width: 29.7, height: 42.0),
            "a4": PaperSize(width: 21.0, height: 29.7), "a5": PaperSize(width: 14.8, height: 21.0),
        ]

        init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }

        /// `a4`, `letter`, … or `210x297mm`, `21x29.7cm`, `8.5x11in`.
        init(argument: String) throws {
            let text = argument.lowercased().trimmingCharacters(in: .whitespaces)
            if let size = Self.named[text] {
                self = size
                return
            }
            let units: [(String, Double)] = [("mm", 0.1), ("cm", 1), ("in", 2.54)]
            guard let (unit, factor) = units.first(where: { text.hasSuffix($0.0) }) else {
                throw ValidationError(
                    "--pdf-page-size must be letter, legal, tabloid, a3, a4, a5 or WIDTHxHEIGHT with mm, cm or in (210x297mm)"
                )
            }
            let parts = text.dropLast(unit.count).split(separator: "x")
            guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0,
                width * factor <= 500, height * factor <= 500
            else {
                throw ValidationError("--pdf-page-size \(argument): expected WIDTHxHEIGHT\(unit), each up to 5 m")
            }
            self.init(width: width * factor, height: height * factor)
        }

        var description: String { "\(width)x\(height)cm" }
    }
#endif
