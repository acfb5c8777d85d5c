import Foundation
import FuzzSupport

@testable import SchemeKit
@testable import SchemeKitTesting

/// The HAR reader (`HARArchive(data:)`: Foundation's `JSONDecoder` and the model's `Codable`
/// conformances, with the errors located by entry), the writer (`JSONEncoder`), and replay's
/// preparation and matching of what was read.
///
/// Properties: reading never traps — a typed `HARError` or an archive; for any `x` that reads,
/// encoding succeeds (nothing read is unencodable), `read(encode(read(x))) == read(x)` and
/// encoding is then stable; preparing the archive for
/// replay gives a handler or a typed `HARError` (body files cannot be found without a directory);
/// every entry's own request can be matched without a trap.
@main
struct FuzzHAR {
    static func main() {
        Fuzzer.run { buffer in
            check(Data(buffer))
        }
    }

    static func check(_ data: Data) {
        let archive: HARArchive
        do throws(HARError) {
            archive = try HARArchive(data: data)
        } catch {
            _ = error.description
            return
        }
        let encoded: Data
        let reread: HARArchive
        do throws(HARError) {
            encoded = try archive.encoded()
        } catch {
            Fuzzer.fail("an archive that was read does not encode: \(error)")
        }
        do throws(HARError) {
            reread = try HARArchive(data: encoded)
        } catch {
            Fuzzer.fail("the encoded archive does not read back: \(error)")
        }
        require(
            reread == archive,
            "read(encode(read(x))) != read(x): \(String(decoding: encoded.prefix(300), as: UTF8.self))")
        require((try? reread.encoded()) == encoded, "encoding is not stable")

        for entry in archive.entries.prefix(16) {
            _ = try? entry.response.content.body(besides: nil)
            _ = try? entry.request.postData?.body(besides: nil)
        }
        guard let replay = try? HARReplayHandler(archive: archive) else { return }
        for entry in archive.entries.prefix(16) {
            guard let method = HTTPRequest.Method(entry.request.method),
                let request = try? SchemeRequest(entry.request.url, method: method)
            else { continue }
            let body = try? entry.request.postData?.body(besides: nil)
            _ = replay.entry(for: request, body: body)
        }
    }
}
