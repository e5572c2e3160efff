import Foundation
import GRDB
import Testing

@testable import TaskWidgetCore
@testable import TaskWidgetStore
@testable import TaskWidgetTestSupport

/// `applySync`: a sync's changes land only when every task is still as its merge saw it.
@Suite struct StoreSyncTests: StoreSuite {
    let fixture: TemporaryStore

    init() throws {
        fixture = try TemporaryStore()
    }

    /// New tasks, each expected to be absent until the changes are applied.
    func pulled(_ count: Int) -> SyncChanges {
        var changes = SyncChanges()
        for index in 0..<count {
            let task = TaskItem(title: "Pulled \(index)", sortOrder: index, createdAt: at(index))
            changes.tasksToSave.append(task)
            changes.expectedTasks[task.id] = .some(nil)
        }
        return changes
    }

    /// Expects `changes` to be refused as "the store changed", and nothing of them applied.
    func expectStoreChanged(_ changes: SyncChanges, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = #expect(throws: TaskWidgetError.self, sourceLocation: sourceLocation) { try store.applySync(changes, account: "home") }
        #expect(error.map(TaskStore.isStoreChangedDuringSync) == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func changesExpectingMoreTasksThanOneQueryReadsAreApplied() throws {
        let changes = pulled(TaskStore.keysPerQuery * 2 + 1)
        try store.applySync(changes, account: "home")
        #expect(try store.tasks(in: .inbox, includeCompleted: true).count == changes.tasksToSave.count)
    }

    /// A list renamed on the server changes only its name and color here, and only while it is
    /// there: its copy comes from the snapshot before the sync's requests, and saved whole, it
    /// undid a `list move` made meanwhile, and brought back a list deleted meanwhile.
    @Test func aListRenamedThereChangesOnlyItsNameAndColor() throws {
        let home = try store.addList(named: "Home", colorHex: "34C759", now: at(0))
        let work = try store.addList(named: "Work", colorHex: nil, now: at(1))
        var renamed = home
        (renamed.name, renamed.colorHex) = ("House", "FF9500")
        _ = try store.moveList("Home", to: 2)
        _ = try store.deleteList("Work", now: at(2))
        var changes = SyncChanges()
        changes.listsRenamed = [renamed, work]
        try store.applySync(changes, account: "home")
        let lists = try store.export().lists
        #expect(lists.map(\.name) == ["House"] && lists.map(\.colorHex) == ["FF9500"])
        #expect(lists.first?.sortOrder != home.sortOrder)
    }

    /// Forgetting an account's sync state removes its home, collections and objects, and
    /// nothing of another account's; its lists and tasks stay. Nothing to forget is `nil`.
    @Test func forgettingAnAccountKeepsItsListsAndTasksAndTheOtherAccounts() throws {
        let home = try store.addList(named: "Home", colorHex: nil, now: at(0))
        let rent = try store.addTask(NewTask(title: "Pay rent", listName: "Home"), now: at(1)).task
        let milk = try store.addTask(NewTask(title: "Buy milk"), now: at(2)).task
        for (account, task, list) in [("home", rent, home.id as UUID?), ("work", milk, nil)] {
            var changes = SyncChanges()
            changes.home = ("https://\(account).example/", "https://\(account).example/dav/")
            changes.collectionsToSave = [
                SyncedCollection(account: account, href: "/dav/c/", url: "https://\(account).example/dav/c/", listID: list, isInbox: list == nil, syncToken: "t", ctag: nil)
            ]
            changes.objectsToSave = [
                SyncedObject(account: account, href: "/dav/c/1.ics", collectionHref: "/dav/c/", taskID: task.id, uid: nil, etag: "e", icalendar: Data(), base: nil)
            ]
            try store.applySync(changes, account: account)
        }
        #expect(try store.accountsWithSyncState().map { "\($0.account) \($0.lists) \($0.tasks)" } == ["home 1 1", "work 0 1"])
        let kept = try #require(try store.forgetSyncState(account: "home", keepingClaims: false))
        #expect(kept.lists == 1 && kept.tasks == 1)
        #expect(try store.accountsWithSyncState().map(\.account) == ["work"])
        let forgotten = try store.syncSnapshot(account: "home")
        #expect(forgotten.home == nil && forgotten.collections.isEmpty && forgotten.objects.isEmpty)
        #expect(forgotten.tasks.map(\.title).sorted() == ["Buy milk", "Pay rent"] && forgotten.lists.map(\.name) == ["Home"])
        let other = try store.syncSnapshot(account: "work")
        #expect(other.home != nil && other.collections.count == 1 && other.objects.map(\.taskID) == [milk.id])
        #expect(try store.forgetSyncState(account: "home", keepingClaims: false) == nil)
    }

    /// Forgotten while configured, an account keeps its lists and tasks as claims: the other
    /// accounts see them as taken, it sees its lists as its own to place, and a claim goes once
    /// its sync has placed it (or its task is gone). A claimed task moved to another account's
    /// list is that account's.
    @Test func aForgottenAccountClaimsItsListsAndTasksUntilItsSyncPlacesThem() throws {
        let home = try store.addList(named: "Home", colorHex: nil, now: at(0))
        let rent = try store.addTask(NewTask(title: "Pay rent", listName: "Home"), now: at(1)).task
        let milk = try store.addTask(NewTask(title: "Buy milk"), now: at(2)).task
        var changes = SyncChanges()
        changes.home = ("https://old.example/", "https://old.example/dav/")
        changes.collectionsToSave = [
            SyncedCollection(account: "home", href: "/dav/c/", url: "https://old.example/dav/c/", listID: home.id, isInbox: false, syncToken: nil, ctag: nil),
            SyncedCollection(account: "home", href: "/dav/i/", url: "https://old.example/dav/i/", listID: nil, isInbox: true, syncToken: nil, ctag: nil),
        ]
        changes.objectsToSave = [rent, milk].map { task in
            SyncedObject(
                account: "home", href: "/dav/x/\(task.id).ics", collectionHref: task.listID == nil ? "/dav/i/" : "/dav/c/", taskID: task.id,
                uid: nil, etag: "e", icalendar: Data(), base: nil)
        }
        try store.applySync(changes, account: "home")

        let kept = try #require(try store.forgetSyncState(account: "home", keepingClaims: true))
        #expect(kept.lists == 1 && kept.tasks == 2)
        // Claims alone count: the list, its task and the Inbox task.
        #expect(try store.accountsWithSyncState().map { "\($0.account) \($0.lists) \($0.tasks)" } == ["home 1 2"])
        // The task in the list is kept out by the list's claim; a task claim counts in the Inbox.
        let other = try store.syncSnapshot(account: "work")
        #expect(other.listsOfOtherAccounts == [home.id] && other.tasksOfOtherAccounts == [milk.id])
        let own = try store.syncSnapshot(account: "home")
        #expect(own.home == nil && own.collections.isEmpty && own.objects.isEmpty && own.claimedLists == [home.id])
        #expect(own.claimedInboxTasks == [milk.id] && other.claimedInboxTasks.isEmpty)

        _ = try store.addList(named: "Work", colorHex: nil, now: at(3))
        _ = try store.editTask(milk.id.lowercasedString, TaskChanges(list: .set("Work")), now: at(3))
        #expect(try store.syncSnapshot(account: "work").tasksOfOtherAccounts.isEmpty)
        // Its first sync places the list and the task in it; the other task, deleted meanwhile, goes too.
        _ = try store.deleteTasks([milk.id.lowercasedString], now: at(3))
        var placed = SyncChanges()
        placed.collectionsToSave = [
            SyncedCollection(account: "home", href: "/n/c/", url: "https://new.example/n/c/", listID: home.id, isInbox: false, syncToken: nil, ctag: nil),
            SyncedCollection(account: "home", href: "/n/i/", url: "https://new.example/n/i/", listID: nil, isInbox: true, syncToken: nil, ctag: nil),
        ]
        placed.objectsToSave = [
            SyncedObject(account: "home", href: "/n/c/1.ics", collectionHref: "/n/c/", taskID: rent.id, uid: nil, etag: "e", icalendar: Data(), base: nil)
        ]
        try store.applySync(placed, account: "home")
        #expect(try store.syncSnapshot(account: "home").claimedLists.isEmpty)
        #expect(try store.syncSnapshot(account: "work").tasksOfOtherAccounts == [rent.id])
        // Nothing left to place, and nothing left to forget once forgotten without claims.
        #expect(try store.forgetSyncState(account: "home", keepingClaims: false).map { [$0.lists, $0.tasks] } == [1, 1])
        #expect(try store.syncSnapshot(account: "work").tasksOfOtherAccounts.isEmpty)
    }

    @Test func aTaskAddedMeanwhileStopsTheChanges() throws {
        var changes = pulled(TaskStore.keysPerQuery + 1)
        // The task of the second query (tasks are read in id order) exists already: another
        // command added it.
        let added = try #require(changes.tasksToSave.max { $0.id < $1.id })
        try store.importing(StoreExport(lists: [], tasks: [added]), source: "fixture")
        try expectStoreChanged(changes)
        #expect(try store.tasks(in: .inbox, includeCompleted: true).map(\.task.id) == [added.id])

        // Expected as it is now, the changes apply.
        changes.expectedTasks[added.id] = .some(added)
        try store.applySync(changes, account: "home")
        #expect(try store.tasks(in: .inbox, includeCompleted: true).count == changes.tasksToSave.count)
    }

    @Test func aTaskEditedOrDeletedMeanwhileStopsTheChanges() throws {
        let first = try store.addTask(NewTask(title: "Call Bob"), now: at(0)).task
        var renamed = first
        renamed.title = "Call Ann"
        var changes = SyncChanges()
        changes.tasksToSave = [renamed]
        changes.expectedTasks[first.id] = .some(first)

        _ = try store.editTask(first.id.lowercasedString, TaskChanges(title: "Call Bob now"), now: at(1))
        try expectStoreChanged(changes)
        _ = try store.deleteTasks([first.id.lowercasedString], now: at(2))
        try expectStoreChanged(changes)
        #expect(try store.tasks(in: .inbox, includeCompleted: true).isEmpty)
    }

    /// A store of the version before objects were marked left alone by a column of their own:
    /// the object with text and no base is the one left alone, the others are not (v8).
    @Test func anObjectLeftAloneBeforeTheUpgradeIsLeftAloneAfterIt() throws {
        let path = fixture.folder.path("v7.sqlite")
        let queue = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(queue, upTo: Migrations.syncClaims)
        try queue.write { db in
            for (href, icalendar, base) in [("/c/bad.ics", "BEGIN:VCALENDAR", nil), ("/c/event.ics", "", nil), ("/c/good.ics", "BEGIN:VCALENDAR", "{}")] {
                try db.execute(
                    sql: "INSERT INTO syncObject (account, href, collectionHref, taskID, icalendar, base) VALUES ('home', ?, '/c/', ?, ?, ?)",
                    arguments: [href, UUID().uuidString, Data(icalendar.utf8), base])
            }
        }
        try queue.close()
        let upgraded = try TemporaryStore.open(path, mode: .readWrite)
        let leftAlone = try upgraded.syncSnapshot(account: "home").objects.filter(\.isLeftAlone).map(\.href)
        #expect(leftAlone == ["/c/bad.ics"])
    }
}
