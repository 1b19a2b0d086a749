import Foundation

/// A logo as the assets host serves one: a PNG's header (signature and a
/// 16 x 16 `IHDR`), then `marker`, which tells one test logo from another.
/// The SDK reads a logo's header only (`LogoImage`), so this is a logo to it.
func testLogo(_ marker: String = "") -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + [0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0] + [0, 0, 0, 0]
    return Data(bytes) + Data(marker.utf8)
}
