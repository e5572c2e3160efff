import Foundation
import TaskWidgetKit
import TaskWidgetRender

/// `libTaskWidgetRenderPlugin.so`'s one entry point, which `RenderPlugin` loads and calls: the
/// contract is documented there.
@_cdecl("taskwidget_render_png_v1")
public func renderPNG(
    _ request: UnsafePointer<UInt8>, _ requestLength: Int,
    _ output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ outputLength: UnsafeMutablePointer<Int>
) -> Int32 {
    RenderPlugin.serve(request, requestLength, output, outputLength) { spec, entry, timeZone in
        try WidgetRenderer(spec: spec).png(for: entry, timeZone: timeZone)
    }
}
