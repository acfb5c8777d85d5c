import Foundation

/// Builds byte headers for sniffing tests from text and raw bytes, in a chain that type-checks fast.
struct ByteBuilder {
    private(set) var data = Data()

    /// Appends the UTF-8 bytes of `text`.
    func ascii(_ text: String) -> ByteBuilder {
        var copy = self
        copy.data.append(contentsOf: Array(text.utf8))
        return copy
    }

    /// Appends `bytes`.
    func raw(_ bytes: UInt8...) -> ByteBuilder {
        var copy = self
        copy.data.append(contentsOf: bytes)
        return copy
    }

    /// Appends `count` copies of `byte`.
    func repeating(_ byte: UInt8, count: Int) -> ByteBuilder {
        var copy = self
        copy.data.append(contentsOf: [UInt8](repeating: byte, count: count))
        return copy
    }
}
