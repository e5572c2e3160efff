internal import CLibPNG
import Foundation
import Synchronization

/// Encodes Cairo image data as PNG, for speed: no filter, zlib level 2, and the two halves of the
/// image compressed at once. Cairo's own writer tries every filter on every row, which costs most
/// of a frame; the pixels are the same.
///
/// Compression is two thirds of a frame, so the rows go to zlib here (``ZlibStream``), not
/// through libpng: the halves become two raw deflate streams, the second primed with the last
/// 32 KB of the first (so that matches cross the seam, as pigz does), joined in one zlib stream;
/// libpng writes the header and the chunks around it. An image of 64 KB of rows or more is always
/// cut in two, whatever the machine's cores, so the same image gives the same bytes everywhere.
///
/// libpng reports errors by `longjmp`, which Swift cannot catch. The only errors possible here are
/// header values out of range (``WidgetSize`` and the scale keep them in range) and running out of
/// memory, on which libpng aborts as Swift itself would (and so does this encoder, on zlib's).
enum PNGEncoder {
    /// What the rows hold and how they are written.
    enum Pixels {
        /// Cairo `ARGB32`: premultiplied, native-endian words; written as RGBA, un-premultiplied.
        case argb
        /// Cairo `RGB24`: opaque, native-endian words; written as RGB.
        case rgb
        /// Cairo `RGB24` that is black and white but for emoji; written as 1-bit grayscale.
        case blackAndWhite
    }

    static let compressionLevel: Int32 = 2
    /// Images with fewer bytes of rows are compressed in one piece: a second thread would cost
    /// more than it saves.
    static let splitThreshold = 64 * 1024

    /// The PNG of `height` rows of `width` pixels, `stride` bytes apart, starting at `data`.
    static func encode(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, pixels: Pixels) -> Data {
        // Cairo's words are 0xAARRGGBB in native byte order: B, G, R, A in memory on the
        // little-endian machines Linux runs on.
        precondition(UInt32(1).littleEndian == 1, "the PNG encoder assumes a little-endian machine")
        precondition(width > 0 && height > 0, "a PNG has at least one pixel")
        // Each row: its filter type (0, none), then its pixels.
        let pixelBytes =
            switch pixels {
            case .argb: width * 4
            case .rgb: width * 3
            case .blackAndWhite: (width + 7) / 8
            }
        let rowBytes = 1 + pixelBytes
        // Each part's thread reads Cairo's rows and writes its own buffers only.
        nonisolated(unsafe) let data = data
        let stream = ZlibStream.compress(
            rowCount: height, rowBytes: rowBytes, level: compressionLevel, parts: rowBytes * height >= splitThreshold && height >= 2 ? 2 : 1
        ) { row, output in
            // The filter type, none, then the pixels.
            output[0] = 0
            let words = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            let pixelRow = UnsafeMutableBufferPointer(rebasing: output[1...])
            switch pixels {
            case .argb: unpremultiply(words, width: width, into: pixelRow)
            case .rgb: unpack(words, width: width, into: pixelRow)
            case .blackAndWhite: threshold(words, width: width, into: pixelRow)
            }
        }

        let output = LibPNGOutput(capacity: stream.count + 128)
        let (png, info) = (output.png, output.info)
        let (colorType, depth): (Int32, Int32) =
            switch pixels {
            case .argb: (PNG_COLOR_TYPE_RGB_ALPHA, 8)
            case .rgb: (PNG_COLOR_TYPE_RGB, 8)
            case .blackAndWhite: (PNG_COLOR_TYPE_GRAY, 1)
            }
        png_set_IHDR(
            png, info, png_uint_32(width), png_uint_32(height), depth, colorType, PNG_INTERLACE_NONE,
            PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
        png_write_chunk(png, Array("IDAT".utf8), stream, stream.count)
        png_write_chunk(png, Array("IEND".utf8), nil, 0)
        return output.data
    }

    /// `0x00RRGGBB` words to R, G, B bytes: each pixel in one 4-byte store whose last byte the next
    /// pixel overwrites, but the last.
    private static func unpack(_ words: UnsafePointer<UInt32>, width: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let bytes = UnsafeMutableRawPointer(output.baseAddress!)
        for x in 0..<width - 1 {
            // 0x00RRGGBB byte-swapped and shifted: R, G, B, 0 in memory.
            bytes.storeBytes(of: (words[x].byteSwapped >> 8).littleEndian, toByteOffset: 3 * x, as: UInt32.self)
        }
        let last = words[width - 1]
        output[3 * width - 3] = UInt8(truncatingIfNeeded: last >> 16)
        output[3 * width - 2] = UInt8(truncatingIfNeeded: last >> 8)
        output[3 * width - 1] = UInt8(truncatingIfNeeded: last)
    }

    /// Premultiplied `0xAARRGGBB` words to straight R, G, B, A bytes. Opaque and transparent
    /// pixels (all but a card's antialiased edges) only change their byte order: four at a time.
    private static func unpremultiply(_ words: UnsafePointer<UInt32>, width: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        let bytes = UnsafeMutableRawPointer(output.baseAddress!)
        var x = 0
        while x + 4 <= width {
            let four = UnsafeRawPointer(words + x).loadUnaligned(as: SIMD4<UInt32>.self)
            let alphas = four &>> 24
            if all(alphas .== 0xFF .| alphas .== 0) {
                // B, G, R, A in memory to R, G, B, A: red and blue change places. (A transparent
                // premultiplied pixel is all zeros.)
                let straight = four & 0xFF00_FF00 | four &>> 16 & 0xFF | (four & 0xFF) &<< 16
                bytes.storeBytes(of: straight, toByteOffset: 4 * x, as: SIMD4<UInt32>.self)
            } else {
                for column in x..<x + 4 { unpremultiply(words[column], into: bytes + 4 * column) }
            }
            x += 4
        }
        for column in x..<width { unpremultiply(words[column], into: bytes + 4 * column) }
    }

    /// One premultiplied `0xAARRGGBB` word to straight R, G, B, A bytes at `output`.
    private static func unpremultiply(_ word: UInt32, into output: UnsafeMutableRawPointer) {
        let alpha = word >> 24
        var (red, green, blue) = (word >> 16 & 0xFF, word >> 8 & 0xFF, word & 0xFF)
        if alpha != 0xFF && alpha != 0 {
            red = (red * 255 + alpha / 2) / alpha
            green = (green * 255 + alpha / 2) / alpha
            blue = (blue * 255 + alpha / 2) / alpha
        }
        output.storeBytes(of: (alpha << 24 | blue << 16 | green << 8 | red).littleEndian, as: UInt32.self)
    }

    /// `0x00RRGGBB` words to 1-bit gray, 8 pixels a byte, the first in the high bit. A mono widget
    /// draws everything in black without antialiasing, so only color emoji bitmaps have other
    /// colors: any pixel that is not (nearly) white turns black, and emoji become silhouettes.
    private static func threshold(_ words: UnsafePointer<UInt32>, width: Int, into output: UnsafeMutableBufferPointer<UInt8>) {
        output.update(repeating: 0)
        for x in 0..<width {
            let word = words[x]
            // Rec. 601 luma in 1/256ths: 77 R + 150 G + 29 B.
            let luma = 77 * (word >> 16 & 0xFF) + 150 * (word >> 8 & 0xFF) + 29 * (word & 0xFF)
            if luma >= 240 * 256 { output[x / 8] |= 0x80 >> UInt8(x % 8) }
        }
    }
}

/// One zlib stream (RFC 1950) of rows, made of raw deflate streams compressed at once, one per
/// part of the rows.
enum ZlibStream {
    /// Writes row `index` (all of the buffer's bytes); called on the parts' threads.
    typealias RowWriter = @Sendable (_ index: Int, _ output: UnsafeMutableBufferPointer<UInt8>) -> Void

    /// `rowCount` rows of `rowBytes` compressed at `level` in `parts` parts of about as many rows,
    /// in parallel. Every part but the last ends byte-aligned (a sync flush), and
    /// every part but the first starts with the 32 KB of rows before it as its dictionary, so the
    /// parts read as one stream. Rows are written and compressed about 32 KB at a time, into a
    /// buffer each part reuses.
    static func compress(rowCount: Int, rowBytes: Int, level: Int32, parts partCount: Int, writeRow: @escaping RowWriter) -> [UInt8] {
        precondition(partCount >= 1 && rowCount >= partCount, "\(rowCount) rows cannot make \(partCount) parts")
        let parts = (0..<partCount).map { rowCount * $0 / partCount..<rowCount * ($0 + 1) / partCount }
        // Each part's thread writes its own result only.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<(deflated: [UInt8], adler: UInt)>.allocate(capacity: partCount)
        results.initialize(repeating: ([], 0))
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        let compressPart = { @Sendable (index: Int) in
            results[index] = deflateRaw(parts[index], rowBytes: rowBytes, level: level, isLast: index == partCount - 1, writeRow: writeRow)
        }
        inParallel(partCount, compressPart)
        // CMF: deflate with a 32 KB window; FLG: the level's class, then the check bits.
        let cmf: UInt = 0x78
        let levelClass: UInt = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
        var flg = levelClass << 6
        flg += 31 - (cmf << 8 | flg) % 31
        var stream = [UInt8(cmf), UInt8(flg)]
        stream.reserveCapacity(2 + results.reduce(0) { $0 + $1.deflated.count } + 4)
        var adler: UInt = 1
        for (index, result) in results.enumerated() {
            stream += result.deflated
            adler = adler32_combine(adler, result.adler, parts[index].count * rowBytes)
        }
        stream += [UInt8(adler >> 24 & 0xFF), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return stream
    }

    /// Runs `body` for each index below `count`, the first on this thread and the others on
    /// threads of their own, and returns when all are done. Plain threads, not libdispatch's
    /// pool: its monitor then woke the process once a second for good, and the drawing helper of
    /// `watch --render-dir` must sleep between frames (helper-116).
    static func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Job {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        var threads: [pthread_t] = []
        for index in 1..<max(1, count) {
            let job = Unmanaged.passRetained(Job { body(index) }).toOpaque()
            var thread = pthread_t()
            let started = pthread_create(&thread, nil, { job in
                Unmanaged<Job>.fromOpaque(job!).takeRetainedValue().run()
                return nil
            }, job)
            if started == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Job>.fromOpaque(job).takeRetainedValue().run()  // no thread to be had: here
            }
        }
        if count > 0 { body(0) }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// The window of deflate, and so the most of a dictionary it uses.
    private static let window = 32 * 1024

    /// The raw deflate stream of the rows of `part`, and their Adler-32.
    private static func deflateRaw(_ part: Range<Int>, rowBytes: Int, level: Int32, isLast: Bool, writeRow: RowWriter) -> (deflated: [UInt8], adler: UInt) {
        let workspace = Workspace.take(level: level)
        defer { workspace.putBack() }
        let stream = workspace.stream
        let batch = max(1, window / rowBytes)
        if workspace.rows.count < (batch + 1) * rowBytes { workspace.rows = [UInt8](repeating: 0, count: (batch + 1) * rowBytes) }
        var output: [UInt8] = []
        var adler: UInt = 1
        workspace.rows.withUnsafeMutableBufferPointer { rows in
            // The rows just before the part, as its dictionary.
            let primers = max(0, part.lowerBound - batch - 1)..<part.lowerBound
            if !primers.isEmpty {
                for (slot, row) in primers.enumerated() { writeRow(row, UnsafeMutableBufferPointer(rebasing: rows[slot * rowBytes..<(slot + 1) * rowBytes])) }
                let count = primers.count * rowBytes
                let used = min(count, window)
                let primed = deflateSetDictionary(stream, rows.baseAddress! + count - used, UInt32(used))
                precondition(primed == Z_OK, "zlib's state is broken")
            }
            var next = part.lowerBound
            while next < part.upperBound {
                let count = min(batch, part.upperBound - next)
                for slot in 0..<count { writeRow(next + slot, UnsafeMutableBufferPointer(rebasing: rows[slot * rowBytes..<(slot + 1) * rowBytes])) }
                next += count
                adler = adler32(adler, rows.baseAddress!, UInt32(count * rowBytes))
                stream.pointee.next_in = rows.baseAddress!
                stream.pointee.avail_in = UInt32(count * rowBytes)
                let flush = next < part.upperBound ? Z_NO_FLUSH : isLast ? Z_FINISH : Z_SYNC_FLUSH
                // zlib's loop: deflate until it leaves room in the output, which means it took all the input.
                repeat {
                    let produced = workspace.chunk.withUnsafeMutableBufferPointer { chunk in
                        stream.pointee.next_out = chunk.baseAddress
                        stream.pointee.avail_out = UInt32(chunk.count)
                        let status = deflate(stream, flush)
                        precondition(status != Z_STREAM_ERROR, "zlib's state is broken")
                        return chunk.count - Int(stream.pointee.avail_out)
                    }
                    output += workspace.chunk[..<produced]
                } while stream.pointee.avail_out == 0
            }
        }
        return (output, adler)
    }

    /// A part's zlib state and buffers (about 400 KB), kept for the next image instead of freed.
    /// A process that draws image after image (`serve`) would otherwise allocate them again each
    /// time, on whichever thread compresses the part; when that thread's heap had never held them,
    /// they were faulted in a page at a time: about 90 page faults, a tenth of an uncached image
    /// in `serve`. There are never more than the most parts compressed at once.
    /// `@unchecked`: a workspace is used by one thread at a time, the one that took it from
    /// ``idle``, and handed over through the lock.
    private final class Workspace: @unchecked Sendable {
        /// Workspaces not in use.
        private static let idle = Mutex<[Workspace]>([])

        /// zlib keeps a pointer to its `z_stream`, which therefore never moves.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        let level: Int32
        /// Rows written for zlib, a batch at a time.
        var rows: [UInt8] = []
        /// What zlib writes, before it is appended to the part's output.
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)

        private init(level: Int32) {
            self.level = level
            stream.initialize(to: z_stream())
            // -15: a raw stream with a 32 KB window; 8: zlib's default memory level.
            let started = deflateInit2_(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            precondition(started == Z_OK, "zlib cannot start: out of memory")
        }

        /// An idle workspace compressing at `level`, reset to start a new stream, or a new one.
        static func take(level: Int32) -> Workspace {
            let kept = idle.withLock { idle in idle.lastIndex { $0.level == level }.map { idle.remove(at: $0) } }
            guard let kept else { return Workspace(level: level) }
            let reset = deflateReset(kept.stream)
            precondition(reset == Z_OK, "zlib's state is broken")
            return kept
        }

        /// Makes the workspace available to the next part.
        func putBack() {
            Self.idle.withLock { $0.append(self) }
        }
    }
}
