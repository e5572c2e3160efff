import Foundation
import Logging
import Testing

@testable import TaskWidgetKit

func probeLogger() -> Logger { Logger(label: "test") }
