import Foundation
import FuzzSupport

@testable import SchemeKit

/// The WHATWG MIME sniffer.
///
/// Properties: no trap; the answer is deterministic; it depends only on the resource header
/// (the first 1445 bytes: appending bytes after them changes nothing); the result is a valid media
/// type that round-trips through its serialisation; with scriptable types off, it is never HTML,
/// XML or PDF.
@main
struct FuzzSniffer {
    static func main() {
        Fuzzer.run { buffer in
            check(Data(buffer))
        }
    }

    static func check(_ data: Data) {
        let sniffer = MIMESniffer()
        let result = sniffer.sniff(data)
        require(sniffer.sniff(data) == result, "sniffing is not deterministic")
        let header = data.prefix(MIMESniffer.resourceHeaderLength)
        require(sniffer.sniff(header) == result, "the answer depends on bytes after the resource header")
        if data.count >= MIMESniffer.resourceHeaderLength {
            // Whatever follows the resource header may not change the answer.
            var longer = Data(header)
            longer.append(contentsOf: [0x00, 0x3C, 0xFF, 0x0A])
            longer.append(data.suffix(from: data.startIndex + MIMESniffer.resourceHeaderLength).prefix(64))
            require(sniffer.sniff(longer) == result, "bytes after the resource header changed the answer")
        }
        require(MediaType(rawValue: result.rawValue) == result, "sniffed type does not round-trip: \(result)")
        let safe = MIMESniffer(sniffsScriptableTypes: false).sniff(data)
        require(
            !["text/html", "text/xml", "application/xml", "application/pdf"].contains(safe.essence),
            "scriptable type \(safe.essence) sniffed with scriptable types off")
    }
}
