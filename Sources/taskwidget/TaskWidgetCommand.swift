import TaskWidgetKit
@main struct Main { static func main() {} }
