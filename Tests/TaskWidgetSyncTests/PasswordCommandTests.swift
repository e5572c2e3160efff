import Foundation
import TaskWidgetCore
import Testing

@testable import TaskWidgetSync

/// An account's `password_command`: its first line is the password, and a command that misbehaves
/// ends with a line that says how, never a hang.
@Suite struct PasswordCommandTests {
    @Test func theFirstLineIsThePassword() throws {
        #expect(try PasswordCommand.run("printf 'hunter2\\nnotes\\n'", account: "home", timeout: .seconds(10)) == "hunter2")
    }

    /// A command that never stops writing (`yes`) filled the pipe once a megabyte was read, and sync
    /// then waited for it for ever: the deadline applied to reading only.
    @Test(.timeLimit(.minutes(1))) func aCommandThatNeverStopsWritingIsEndedAndSaidSo() throws {
        let error = #expect(throws: TaskWidgetError.self) { try PasswordCommand.run("yes", account: "home", timeout: .seconds(60)) }
        #expect(error?.code == .badConfig)
        #expect(error?.message == "the password command of the account “home” printed more than a megabyte: it should print the password alone")
    }

    /// One that closes its output and goes on: the deadline holds for its end too (sync waited
    /// for it without one).
    @Test(.timeLimit(.minutes(1))) func aCommandThatClosesItsOutputAndGoesOnIsEndedAtTheDeadline() throws {
        let error = #expect(throws: TaskWidgetError.self) {
            try PasswordCommand.run("echo hunter2; exec >&-; sleep 60", account: "home", timeout: .seconds(1))
        }
        #expect(error?.message == "the password command of the account “home” did not finish within 1 s: check it in a shell")
    }

    /// One that printed its line and ended, leaving a child that holds its output: it answered,
    /// and sync waited out the deadline for the end of the output (helper-75).
    @Test(.timeLimit(.minutes(1))) func aCommandThatEndsLeavingAChildWithItsOutputHasAnswered() throws {
        #expect(try PasswordCommand.run("(sleep 30 &); echo hunter2", account: "home", timeout: .seconds(20)) == "hunter2")
    }

    @Test func aFailingCommandIsSaidWithItsExitStatus() throws {
        let error = #expect(throws: TaskWidgetError.self) { try PasswordCommand.run("exit 3", account: "home", timeout: .seconds(10)) }
        #expect(error?.message == "the password command of the account “home” failed (exit 3): check it in a shell")
    }

    /// The password is the first line: a command that printed it on the second was said to have
    /// printed nothing (helper-84).
    @Test(arguments: [("true", "nothing"), ("printf '\\n\\n'", "nothing"), ("printf '\\nhunter2\\n'", "an empty first line, where the password goes")])
    func aCommandWithoutAPasswordOnItsFirstLineIsSaidSo(command: String, printed: String) throws {
        let error = #expect(throws: TaskWidgetError.self) { try PasswordCommand.run(command, account: "home", timeout: .seconds(10)) }
        #expect(error?.message == "the password command of the account “home” printed \(printed): check it in a shell")
    }
}
