internal import CLibPNG
import Foundation

/// libpng writing into memory, for both encoders (``PNGEncoder``, ``GrayPNGEncoder``): the write
/// struct (its warnings ignored, errors left to abort: see ``GrayPNGEncoder``), its info, and the
/// bytes written so far. The structs are destroyed with it.
final class LibPNGOutput {
    private(set) var png: png_structp?
    private(set) var info: png_infop?
    private var bytes: [UInt8] = []

    /// `capacity`: the bytes expected, reserved at once.
    init(capacity: Int) {
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, { _, _ in })
        info = png_create_info_struct(png)
        bytes.reserveCapacity(capacity)
        png_set_write_fn(
            png, Unmanaged.passUnretained(self).toOpaque(),
            { png, bytes, count in
                let output = Unmanaged<LibPNGOutput>.fromOpaque(png_get_io_ptr(png)!).takeUnretainedValue()
                output.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }, nil)
    }

    deinit { png_destroy_write_struct(&png, &info) }

    /// What libpng wrote.
    var data: Data { Data(bytes) }
}
