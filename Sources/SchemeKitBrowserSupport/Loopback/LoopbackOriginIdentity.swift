#if Chromium || Firefox || WebKitGTK
    import Crypto
    import Foundation
    package import NIOSSL
    import SwiftASN1
    import X509

    /// The TLS identity of a loopback origin: a P-256 key made for one browser launch and a
    /// self-signed certificate for `localhost` and `*.localhost`, neither ever written to disk.
    ///
    /// The browser is told to trust it and nothing else: Chromium by the key's hash
    /// (`--ignore-certificate-errors-spki-list`, which makes a certificate with that key valid, so
    /// the origin is a secure context where service workers register), Firefox for its own session
    /// only (`acceptInsecureCerts`). A new launch makes a new key, so a certificate seen once is
    /// never trusted again.
    package struct LoopbackOriginIdentity: Sendable {
        /// The certificate, DER.
        package let certificate: [UInt8]
        /// The certificate as PEM text (what GLib's `g_tls_certificate_new_from_pem` reads).
        package var certificatePEM: String {
            let base64 = Data(certificate).base64EncodedString(options: .lineLength64Characters)
            return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        }
        /// The base64 SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium's
        /// `--ignore-certificate-errors-spki-list` takes.
        package let publicKeyHash: String
        /// The server's TLS context (HTTP/1.1 only).
        package let context: NIOSSLContext

        /// Makes a new key and certificate.
        ///
        /// - Throws: what the certificate or TLS library throws (never for valid input).
        package init() throws {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName("SchemeKit loopback origin") }
            let now = Date()
            let certificate = try Certificate(
                version: .v3,
                serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-3600),
                notValidAfter: now.addingTimeInterval(30 * 86_400),
                issuer: name,
                subject: name,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([.dnsName("localhost"), .dnsName("*.localhost")])
                },
                issuerPrivateKey: Certificate.PrivateKey(key))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            self.certificate = serializer.serializedBytes
            publicKeyHash = Data(SHA256.hash(data: key.publicKey.derRepresentation)).base64EncodedString()
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: self.certificate, format: .der))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)))
            configuration.applicationProtocols = ["http/1.1"]
            context = try NIOSSLContext(configuration: configuration)
        }
    }
#endif
