public import Foundation
public import Logging
public import TaskWidgetConfig
public import TaskWidgetCore
public import TaskWidgetStore

/// What one account's sync did, or would do (`--dry-run`).
public struct SyncReport: Sendable {
    /// One collection's share of the plan, for `--dry-run`.
    public struct CollectionPlan: Sendable {
        /// The list's name, or `Inbox`.
        public var name: String
        public var href: String
        /// Short ids of the tasks the store gets from the server (created or updated).
        public var pulled: [String] = []
        /// Short ids of the tasks written to the server.
        public var pushed: [String] = []
        /// Short ids of the tasks deleted in the store.
        public var deletedLocally: [String] = []
        /// Short ids of the tasks deleted on the server.
        public var deletedRemotely: [String] = []
        /// Short ids of the tasks that leave the collection for another list's (not deleted: they
        /// are among another collection's ``pushed``).
        public var movedAway: [String] = []
        /// Whether the collection is made on the server for a list of this store.
        public var isNew = false
        /// Whether its list was deleted here: then the collection is deleted there once empty,
        /// unless it may hold events.
        public var isListDeletedHere = false
        /// Whether it holds nothing but tasks (a collection that may hold events is never deleted).
        public var holdsOnlyTasks = false
        /// Whether the server deleted it since the last sync: its tasks not edited here since are
        /// deleted here.
        public var isDeletedThere = false
        /// Whether, deleted there, it is made again for the tasks that stay (``pushed``): the
        /// Inbox's, or a list's on the account that receives new lists.
        public var isMadeAgain = false
    }

    public var account: String
    public var pulled = 0
    public var pushed = 0
    public var conflicts = 0
    public var deleted = 0
    /// Collections deleted on the server because their list was deleted here.
    public var collectionsDeleted = 0
    /// Lists renamed or recolored here because their collection was on the server.
    public var listsChanged = 0
    /// Collections of lists deleted here that stay on the server, and why.
    public var collectionsKept: [KeptCollection] = []
    /// Lists of this store whose collection the server refused to make: they stay here alone.
    public var listsKeptHere: [KeptList] = []
    /// Calendar objects that are not valid iCalendar, left alone on both sides.
    public var skipped: [String] = []
    /// The writes the server refused (a read-only calendar's 403).
    public var refused: [RefusedWrite] = []
    public var collections: [CollectionPlan] = []

    /// A write the server refused: an edit or a new task stays changed here and is sent again at
    /// the next sync; a deletion is undone here, the task back as the server has it.
    public struct RefusedWrite: Sendable, Equatable {
        /// The HTTP status of the refusal.
        public var status: Int?
        /// The collection written to, by its path (logs get no names).
        public var collectionHref: String
        /// Its name, for a terminal (``SyncEngine/namesCollections``).
        public var collectionName: String?
        /// A deletion, whose task is back here.
        public var isRestoredDeletion: Bool

        public init(status: Int?, collectionHref: String, collectionName: String? = nil, isRestoredDeletion: Bool = false) {
            self.status = status
            self.collectionHref = collectionHref
            self.collectionName = collectionName
            self.isRestoredDeletion = isRestoredDeletion
        }
    }

    /// A collection whose list was deleted here but that stays on the server.
    public struct KeptCollection: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// A calendar that may hold events is never deleted; only its tasks were.
            case mayHoldEvents
            /// Objects other than the list's tasks are still in it.
            case holdsObjects(Int)
            /// The server refused the deletion, or something came in meanwhile (412).
            case refused(status: Int?)
        }

        /// Its display name, cleaned up as a list name from a server is.
        public var name: String
        /// Its path on the server.
        public var href: String
        public var reason: Reason

        /// `“Family” stays on the server: it may hold events, so only its tasks were deleted`; not
        /// `named`, it is `the calendar /alice/family/`.
        public func line(named: Bool) -> String {
            let why =
                switch reason {
                case .mayHoldEvents: "it may hold events, so only its tasks were deleted; delete it in a calendar app if it is no longer needed"
                case .holdsObjects(let count): "it still holds \(counted(count, "object")) that this store does not know"
                case .refused(let status): "the server did not delete it\(status.map { " (HTTP \($0))" } ?? "")"
                }
            return "\(named ? "“\(name)”" : "the calendar \(href)") stays on the server: \(why)"
        }
    }

    /// A list of this store whose collection the server refused to make (MKCALENDAR): it and its
    /// tasks are on this machine alone, and a task moved into it has left the server.
    public struct KeptList: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// The HTTP status of the refusal.
        public var status: Int?

        /// `“Trips” stays on this machine: …`, a line for each of `lists`; not `named` (for logs),
        /// one line for them all, `2 lists stay …`: lines alike told them apart by nothing
        /// (helper-149).
        public static func lines(for lists: [KeptList], named: Bool) -> [String] {
            guard !named else { return lists.map { line(subject: "“\($0.name.sanitizedForMessage)”", count: 1, statuses: [$0.status]) } }
            return lists.isEmpty ? [] : [line(subject: lists.count == 1 ? "a list" : "\(lists.count) lists", count: lists.count, statuses: lists.map(\.status))]
        }

        private static func line(subject: String, count: Int, statuses: [Int?]) -> String {
            let codes = Set(statuses.compactMap { $0 }).sorted().map { "HTTP \($0)" }.joined(separator: ", ")
            let (they, their) = count == 1 ? ("it", "its") : ("them", "their")
            return "\(subject) \(count == 1 ? "stays" : "stay") on this machine: the server did not make a calendar for \(they)"
                + (codes.isEmpty ? "" : " (\(codes))")
                + ", so \(their) tasks are not on the server (one moved into \(they) was removed there); move them to a list the server has to sync them"
        }
    }

    /// This report and a later round's, counted together.
    func adding(_ other: SyncReport) -> SyncReport {
        var sum = self
        sum.pulled += other.pulled
        sum.pushed += other.pushed
        sum.conflicts += other.conflicts
        sum.deleted += other.deleted
        sum.collectionsDeleted += other.collectionsDeleted
        sum.listsChanged += other.listsChanged
        sum.collectionsKept += other.collectionsKept
        sum.listsKeptHere += other.listsKeptHere.filter { !listsKeptHere.contains($0) }
        sum.skipped += other.skipped.filter { !skipped.contains($0) }
        sum.refused += other.refused
        return sum
    }

    /// The summary line, `home: pulled 3, pushed 1, 1 conflict merged, deleted 0`, then one line
    /// per collection of a deleted list that stays on the server, named by its path: this goes to
    /// logs and the journal, which never get names.
    public var summary: String { summary(namingCollections: false) }

    /// ``summary``, with the collections that stay named by their names when `namingCollections`
    /// (for a terminal).
    public func summary(namingCollections: Bool) -> String {
        var text = "\(account): pulled \(pulled), pushed \(pushed), \(counted(conflicts, "conflict")) merged, deleted \(deleted)"
        if collectionsDeleted > 0 { text += ", \(counted(collectionsDeleted, "deleted list")) removed from the server" }
        if listsChanged > 0 { text += ", \(counted(listsChanged, "list")) renamed or recolored as on the server" }
        if !skipped.isEmpty { text += ", \(skipped.count) left alone (not valid iCalendar)" }
        let deletions = refused.filter(\.isRestoredDeletion).count
        if refused.count > deletions { text += ", \(counted(refused.count - deletions, "change")) refused by the server" }
        if deletions > 0 { text += ", \(counted(deletions, "deletion")) refused by the server (\(deletions == 1 ? "the task is" : "the tasks are") back here)" }
        return ([text] + collectionsKept.map { "\(account): \($0.line(named: namingCollections))" }
            + KeptList.lines(for: listsKeptHere, named: namingCollections).map { "\(account): \($0)" }).joined(separator: "\n")
    }

    /// The failure to report when the server refused writes: the rest of the sync went through,
    /// but those changes are not on the server. Collections are named by their paths: this goes
    /// to the journal too.
    public var refusalError: TaskWidgetError? {
        guard !refused.isEmpty else { return nil }
        func described(_ writes: [RefusedWrite], _ what: String, _ outcome: String) -> String? {
            guard !writes.isEmpty else { return nil }
            let codes = Set(writes.compactMap(\.status)).sorted()
            let statuses = codes.map { "HTTP \($0)" }.joined(separator: ", ")
            let collections = Set(writes.map { $0.collectionName.map { "“\($0)”" } ?? $0.collectionHref }).sorted().joined(separator: ", ")
            return "the server refused \(what)\(statuses.isEmpty ? "" : " (\(statuses))") in \(collections): \(Self.likelyCause(of: codes)); \(outcome)"
        }
        let changes = refused.filter { !$0.isRestoredDeletion }
        let deletions = refused.filter(\.isRestoredDeletion)
        let parts = [
            // The way out said: a timer failed every 15 minutes, and nothing said how to stop it (helper-120).
            described(
                changes, counted(changes.count, "change"),
                "the tasks stay changed here, and the next sync sends them again (change them back here, or move a new one to another list, to stop it)"),
            described(
                deletions, "to delete \(counted(deletions.count, "task"))",
                deletions.count == 1 ? "the task is back here as the server has it" : "the tasks are back here as the server has them"),
        ]
        return TaskWidgetError(.unavailable, "\(account): " + parts.compactMap { $0 }.joined(separator: "; and "), context: "writes refused")
    }

    /// What refusals with these HTTP statuses (those of ``CalDAVError/refusesOneObject``) most
    /// likely mean.
    static func likelyCause(of statuses: [Int]) -> String {
        var causes: [String] = []
        if statuses.isEmpty || statuses.contains(403) { causes.append("the calendar may be read-only") }
        // A 409 for a PUT: the calendar went meanwhile (a phone deleted the list), which the
        // next sync sees and makes again, or one that takes no writes (helper-147).
        if statuses.contains(409) { causes.append("the calendar may have been deleted meanwhile (then the next sync makes it again) or be read-only") }
        if statuses.contains(where: { [400, 415, 422].contains($0) }) { causes.append("the server found a task it does not accept (its log says why)") }
        if statuses.contains(413) { causes.append("a task is too large for the server") }
        return causes.isEmpty ? "the server's log says why" : causes.joined(separator: ", or ")
    }
}

/// Syncs one account: pulls what changed on the server, merges every task with ``TaskMerge``
/// against the base of the last sync, writes the store in one transaction, then pushes to the
/// server with `If-Match` / `If-None-Match: *` (a 412 is read again, merged and retried).
///
/// Nothing changes in the store unless every answer of the pull was complete and valid; pushes
/// are recorded as they succeed, so an interrupted sync resumes where it stopped, and objects are
/// named after their UID, so a repeated create meets its own object instead of a duplicate.
///
/// ```swift
/// let engine = SyncEngine(
///     store: store, account: account, client: client, timeZone: zone, now: now, receivesNewLists: true, receivesNewInboxTasks: true,
///     logger: logger)
/// print(try await engine.run(dryRun: false).summary)
/// ```
public struct SyncEngine: Sendable {
    public let store: TaskStore
    public let account: SyncAccount
    public let client: CalDAVClient
    public let timeZone: TimeZone
    public let now: Instant
    /// Whether lists of this store that no account syncs yet are made on this account's server.
    public let receivesNewLists: Bool
    /// Whether Inbox tasks that no account syncs yet go to this account's Inbox: on the first
    /// account that has one, so that one goes to one server, whichever account syncs first.
    public let receivesNewInboxTasks: Bool
    /// Told after each change sent to the server: how many are done, of how many.
    public let progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    /// Whether errors name collections by their names (for a terminal), or by their paths (for a
    /// journal, where names are never logged).
    public let namesCollections: Bool
    /// Whether this sync may delete here more than half of the tasks the store synced with the
    /// account (``checkDeletions(_:_:)``).
    public let allowsMassDeletion: Bool
    /// The options its advice repeats after `taskwidget sync` (` --store PATH`), as they were given.
    public let commandOptions: String
    let logger: Logger
    /// Rounds of re-reading and merging a task whose write met a 412.
    static let maximumConflictRounds = 3
    /// Pushes recorded in the store per transaction.
    static let recordBatchSize = 100
    /// What a server answers to a collection it does not let this client make or delete.
    static let refusals: Set<CalDAVError.Code> = [.forbidden, .notSupported, .conflict]

    public init(
        store: TaskStore, account: SyncAccount, client: CalDAVClient, timeZone: TimeZone, now: Instant,
        receivesNewLists: Bool, receivesNewInboxTasks: Bool, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil,
        namesCollections: Bool = true, allowsMassDeletion: Bool = false, commandOptions: String = "", logger: Logger
    ) {
        self.store = store
        self.account = account
        self.client = client
        self.timeZone = timeZone
        self.now = now
        self.receivesNewLists = receivesNewLists
        self.receivesNewInboxTasks = receivesNewInboxTasks
        self.progress = progress
        self.namesCollections = namesCollections
        self.allowsMassDeletion = allowsMassDeletion
        self.commandOptions = commandOptions
        self.logger = logger
    }

    var mapping: TodoMapping { TodoMapping(timeZone: timeZone) }

    /// Syncs the account; with `dryRun`, works out the plan and changes nothing anywhere.
    ///
    /// When a collection was deleted on the server and its list keeps tasks edited here since (an
    /// edit wins over a deletion), a second round makes the collection again and pushes them, so
    /// that one sync leaves both sides alike. Only on the account that receives new lists: on the
    /// others, the list goes to that account at its next sync. The Inbox's collection is made
    /// again on its own account, with the Inbox's tasks that stay.
    public func run(dryRun: Bool) async throws -> SyncReport {
        let first = try await runOnce(dryRun: dryRun)
        guard first.makesDeletedCollectionsAgain, !dryRun else { return first.report }
        logger.debug("a collection deleted on the server keeps a list here, or was the Inbox's; making it again")
        return first.report.adding(try await runOnce(dryRun: false, formerObjects: first.objectsOfDeletedCollections).report)
    }

    /// The store's snapshot for this account, where an Inbox task that no account has or claims
    /// is left to the account that receives new Inbox tasks, unless this is it. Those of
    /// `formerObjects` are this account's: their collection, deleted there, is made again.
    private func readSnapshot(formerObjects: [UUID: SyncedObject]) throws -> SyncSnapshot {
        var snapshot = try store.syncSnapshot(account: account.name)
        guard !receivesNewInboxTasks else { return snapshot }
        let own = Set(snapshot.objects.map(\.taskID)).union(snapshot.claimedInboxTasks).union(formerObjects.keys)
        snapshot.tasksOfOtherAccounts.formUnion(snapshot.tasks.lazy.filter { $0.listID == nil && !own.contains($0.id) }.map(\.id))
        return snapshot
    }

    /// One round of ``run(dryRun:)``; also says whether a collection the server deleted is to be
    /// made again (a list's that stays here, or the Inbox's), with the objects such collections
    /// held, by task, for the round that makes them (``SyncPlanner/formerObjects``).
    private func runOnce(dryRun: Bool, formerObjects: [UUID: SyncedObject] = [:]) async throws -> (
        report: SyncReport, makesDeletedCollectionsAgain: Bool, objectsOfDeletedCollections: [UUID: SyncedObject]
    ) {
        var snapshot = try readSnapshot(formerObjects: formerObjects)
        let (home, discoveredCollections) = try await calendarHome(snapshot)
        let discovered = discoveredCollections != nil
        // Discovery lists the home's collections already: a first sync lists them once.
        let listing = if let discoveredCollections { discoveredCollections } else { try await listTaskCollections(in: home, snapshot: snapshot) }
        if home.isOneCalendar { try checkOneCalendar(listing, snapshot: snapshot) }
        var binding = bind(listing, snapshot: snapshot, home: home)
        try checkInboxName(binding)
        try checkInboxStays(binding)
        var pull = try await pull(binding.bindings, objects: snapshot.objects)
        let restoring = collectionsKeepingTasks(of: binding.detached, snapshot: snapshot, binding: binding, pull: pull)
        var restoredLists: [UUID] = []
        if !restoring.isEmpty {
            logger.info("a task of a list gone here is kept (edited or new on the server); the list comes back", metadata: ["lists": "\(restoring.count)"])
            restoredLists = binding.detached.filter { restoring.contains($0.href.path) }.compactMap(\.listID)
            binding = bind(listing, snapshot: snapshot, home: home, restoring: restoring)
        }
        // What would be deleted here is checked before anything is written, on the server too (a
        // collection made for a list or the Inbox).
        var plan = planner(snapshot, binding: binding, pull: pull, formerObjects: formerObjects).plan()
        if let stored = snapshot.home, stored.accountURL != account.url { try checkChangedURL(from: stored.accountURL, plan) }
        try checkDeletions(plan, snapshot, listing: listing)
        if !dryRun, !binding.listsToMake.isEmpty || binding.inboxToMake != nil {
            let known = Set(binding.bindings.map(\.href))
            binding = try await makeCollections(binding)
            pull.add(try await self.pull(binding.bindings.filter { !known.contains($0.href) }, objects: []))
            plan = planner(snapshot, binding: binding, pull: pull, formerObjects: formerObjects).plan()
        }
        plan.local.listTombstonesToClear = restoredLists + Self.deletedListsOfVanishedCollections(plan, snapshot)
        logger.debug(
            "planned", metadata: [
                "fetched": "\(pull.fetched.count)", "removed": "\(pull.removed.count)", "skipped": "\(pull.skipped.count)",
                "localWrites": "\(plan.local.tasksToSave.count)", "localDeletes": "\(plan.local.tasksToDelete.count)",
                "remoteWrites": "\(plan.operations.count)",
            ])
        if discovered { plan.local.home = (account.url, home.url.absoluteString) }
        var report = SyncReport(account: account.name)
        if dryRun {
            return (summarize(plan, binding: binding, snapshot: snapshot, into: report), false, [:])
        }
        // Another command may write the store meanwhile: merge again on a new snapshot.
        for round in 1...Self.maximumConflictRounds {
            do {
                try store.applySync(plan.local, account: account.name)
                break
            } catch where TaskStore.isStoreChangedDuringSync(error) && round < Self.maximumConflictRounds {
                logger.debug("the store changed during the merge; merging again")
                snapshot = try readSnapshot(formerObjects: formerObjects)
                plan = planner(snapshot, binding: binding, pull: pull, formerObjects: formerObjects).plan()
                plan.local.listTombstonesToClear = restoredLists + Self.deletedListsOfVanishedCollections(plan, snapshot)
                if discovered { plan.local.home = (account.url, home.url.absoluteString) }
            }
        }
        report.pulled = plan.pulled.count
        report.conflicts = plan.conflicts.count
        report.deleted = plan.deletedLocally.count
        report.skipped = plan.skipped.map(\.path)
        report.listsChanged = plan.local.listsRenamed.count
        report.listsKeptHere = binding.listsNotMade
        let urls = Dictionary(binding.bindings.map { ($0.href.path, $0.url) }, uniquingKeysWith: { first, _ in first })
        let pushed = try await push(plan.operations, collectionURLs: urls, report: &report)
        // On a terminal, refusals name their calendars as the user knows them (helper-120).
        if namesCollections {
            let names = Dictionary(
                binding.bindings.map { ($0.href.path, Validation.titleFromElsewhere($0.server?.displayName ?? $0.href.lastComponent)) },
                uniquingKeysWith: { first, _ in first })
            for index in report.refused.indices { report.refused[index].collectionName = names[report.refused[index].collectionHref] }
        }
        try await refreshTokens(of: Set(pushed))
        try await deleteCollections(ofListsDeletedHere: binding.listsDeletedHere, report: &report)
        let forgotten = Set(plan.local.collectionsToForget)
        let listsOfForgotten = Set(snapshot.collections.filter { forgotten.contains($0.href) }.compactMap(\.listID))
        // (the store read again only when the server deleted a collection: the merge may keep its list)
        let keepsLists = try !listsOfForgotten.isEmpty && !listsOfForgotten.isDisjoint(with: store.listSummaries().map(\.list.id))
        let objectsOfForgotten = snapshot.objects.filter { forgotten.contains($0.collectionHref) && $0.base != nil && !$0.isLeftAlone }
        return (
            report, (keepsLists && receivesNewLists) || binding.inboxVanished,
            Dictionary(objectsOfForgotten.map { ($0.taskID, $0) }, uniquingKeysWith: { first, _ in first })
        )
    }

    /// The deleted lists whose collection the server deleted too: nothing is left to do for them.
    private static func deletedListsOfVanishedCollections(_ plan: SyncPlan, _ snapshot: SyncSnapshot) -> [UUID] {
        let vanished = Set(plan.local.collectionsToForget)
        return snapshot.collections.filter { vanished.contains($0.href) }.compactMap(\.listID).filter(snapshot.listTombstones.contains)
    }

    /// The hrefs of `detached` collections a task of which this sync would keep: one edited there
    /// after its deletion here, or new there. Worked out by planning with them detached.
    private func collectionsKeepingTasks(
        of detached: [CollectionBinding], snapshot: SyncSnapshot, binding: Binding, pull: Pull
    ) -> Set<String> {
        let hrefs = Set(detached.map(\.href.path))
        let fetchedThere = Dictionary(
            pull.fetched.filter { hrefs.contains($0.collectionHref.path) }.map { ($0.taskID, $0.collectionHref.path) },
            uniquingKeysWith: { first, _ in first })
        guard !fetchedThere.isEmpty else { return [] }
        let plan = planner(snapshot, binding: binding, pull: pull).plan()
        return Set(plan.local.tasksToSave.compactMap { fetchedThere[$0.id] })
    }

    /// Deletes on the server the collections of lists deleted here, as the deletion of a list on
    /// a phone does, once they are empty: their tasks' deletions went out as single deletes (each
    /// with `If-Match`, so a task edited there meanwhile is merged, not lost). Tried once per
    /// deletion (its list tombstone is cleared whatever the outcome). A collection is left when it
    /// may hold events, when anything is still in it, or when the server refuses; the delete
    /// carries the collection's entity tag when the server gives one, so that it fails if anything
    /// came in meanwhile.
    private func deleteCollections(ofListsDeletedHere collections: [CollectionBinding], report: inout SyncReport) async throws {
        guard !collections.isEmpty else { return }
        var changes = SyncChanges()
        changes.listTombstonesToClear = collections.compactMap(\.listID)
        for collection in collections {
            guard let server = collection.server else { continue }
            let name = Validation.titleFromElsewhere(server.displayName ?? collection.href.lastComponent)
            func keep(_ reason: SyncReport.KeptCollection.Reason) {
                report.collectionsKept.append(.init(name: name, href: collection.href.path, reason: reason))
            }
            guard server.holdsOnlyTasks else {
                keep(.mayHoldEvents)
                continue
            }
            let contents = try await client.collectionContents(at: collection.url)
            guard contents.members.isEmpty else {
                logger.info("the collection of a list deleted here still holds objects; it stays", metadata: ["objects": "\(contents.members.count)"])
                keep(.holdsObjects(contents.members.count))
                continue
            }
            switch await Self.attempt({ () async throws(CalDAVError) in try await client.deleteCollection(at: collection.url, ifMatch: contents.etag) }) {
            case .success:
                changes.collectionsToForget.append(collection.href.path)
                report.collectionsDeleted += 1
            case .failure(let error) where Self.refusals.contains(error.code) || error.code == .preconditionFailed:
                logger.notice("the server did not delete a collection; it stays", metadata: ["status": "\(error.status ?? 0)"])
                keep(.refused(status: error.status))
            case .failure(let error):
                throw error
            }
        }
        try store.applySync(changes, account: account.name)
    }

    // MARK: - Collections

    /// Where the account's collections are: a calendar home, or the one calendar its URL names.
    struct AccountHome: Sendable {
        var url: URL
        /// The account syncs this one calendar only (``CalendarHome/isOneCalendar``).
        var isOneCalendar: Bool
    }

    /// The calendar home: remembered from the first sync, else discovered from the account URL,
    /// with the task collections that discovery listed in it (`nil` for a remembered home). A
    /// remembered home that is one of the collections synced is the account's one calendar.
    private func calendarHome(_ snapshot: SyncSnapshot) async throws(CalDAVError) -> (AccountHome, collections: [CalendarCollection]?) {
        if let stored = snapshot.home, stored.accountURL == account.url, let url = URL(string: stored.homeURL) {
            return (AccountHome(url: url, isOneCalendar: Self.syncedOneCalendar(snapshot)), nil)
        }
        let home = try await client.discover()
        return (AccountHome(url: home.url, isOneCalendar: home.isOneCalendar), home.taskCollections)
    }

    /// The collections that may hold tasks: one PROPFIND of the home, whose sync-tokens tell which
    /// collections changed (so a sync with nothing changed makes this one request), or of the
    /// account's one calendar.
    private func listTaskCollections(in home: AccountHome, snapshot: SyncSnapshot) async throws(CalDAVError) -> [CalendarCollection] {
        if home.isOneCalendar { return [try await client.collection(at: home.url)].filter(\.allowsTasks) }
        let needsCtag = snapshot.collections.isEmpty || snapshot.collections.contains { $0.syncToken == nil }
        return try await client.listCollections(in: home.url, includingCtag: needsCtag).filter(\.allowsTasks)
    }

    /// Whether the home remembered from the account's first sync is one of its collections: its
    /// URL named one calendar (a calendar home is never a calendar).
    private static func syncedOneCalendar(_ snapshot: SyncSnapshot) -> Bool {
        guard let stored = snapshot.home, let url = URL(string: stored.homeURL) else { return false }
        let path = DAVHref(serverHref: url.absoluteString, relativeTo: url)?.asCollection.path
        return snapshot.collections.contains { $0.href == path }
    }

    /// An account URL that names one calendar syncs that calendar only. Refused when it cannot
    /// hold tasks (or no longer can), and when this store syncs other collections of the account
    /// (its URL named their home, or another calendar, before): they would read as deleted on the
    /// server, and their tasks here with them.
    private func checkOneCalendar(_ listing: [CalendarCollection], snapshot: SyncSnapshot) throws {
        guard let calendar = listing.first else {
            throw TaskWidgetError(
                .badConfig,
                "the url of the account “\(account.name)” names a calendar that cannot hold tasks: give the url of one that can, or of the calendar home",
                context: "one calendar without tasks")
        }
        let others = snapshot.collections.filter { $0.href != calendar.href.path }
        guard others.isEmpty else {
            let before = snapshot.home.flatMap { URL(string: $0.accountURL) }.map { " (\(CalDAVError.redact($0)))" } ?? ""
            if Self.syncedOneCalendar(snapshot) {
                throw TaskWidgetError(
                    .badConfig,
                    "the url of the account “\(account.name)” now names another calendar than the one this store syncs with it: "
                        + "set its url back to the one it had\(before), and add the other calendar as an account of its own "
                        + "(`taskwidget sync account add NAME --url URL`), or run `taskwidget sync account forget \(account.name.shellQuoted)` "
                        + "to sync the new one instead (the old one's list then stays here only)",
                    context: "one calendar changed")
            }
            throw TaskWidgetError(
                .badConfig,
                "the url of the account “\(account.name)” now names one calendar, but this store syncs \(others.count) other "
                    + "collection\(others.count == 1 ? "" : "s") of it, which would read as deleted: set its url back to the one "
                    + "it had\(before), or run `taskwidget sync account forget \(account.name.shellQuoted)` to sync that calendar only "
                    + "from now on (the others' lists then stay here only)",
                context: "one calendar narrowed")
        }
    }

    /// A sync whose account URL changed since the last one (it was `previousURL`) must not
    /// delete anything here: what it synced would read as deleted on a server that does not hold
    /// it (another server, or another home), and its tasks here with it. The same server by
    /// another name or URL holds everything and syncs on; what a phone deleted there meanwhile
    /// waits for the URL it had.
    private func checkChangedURL(from previousURL: String, _ plan: SyncPlan) throws {
        let lacking = [
            plan.deletedLocally.isEmpty ? nil : counted(plan.deletedLocally.count, "task"),
            plan.local.collectionsToForget.isEmpty ? nil : counted(plan.local.collectionsToForget.count, "collection"),
        ].compactMap { $0 }
        guard !lacking.isEmpty else { return }
        let previous = URL(string: previousURL).map { " (\(CalDAVError.redact($0)))" } ?? ""
        throw TaskWidgetError(
            .badConfig,
            "the url of the account “\(account.name)” changed since the last sync, and where it leads now lacks "
                + "\(lacking.joined(separator: " and ")) this store synced with it, so sync would delete them here: if the server is the "
                + "same, set its url back\(previous) and sync once before changing it; if the account moved to a server that does "
                + "not hold them yet, run `taskwidget sync account forget \(account.name.shellQuoted)\(commandOptions)` for its next sync to send "
                + "this store's tasks there",
            context: "account url changed")
    }

    /// Deletions here that a sync makes without being told, at most: a few tasks deleted on a
    /// phone are never refused.
    static let deletionsAlwaysAllowed = 5

    /// A sync that would delete here more than half of the tasks this store synced with the
    /// account (and more than ``deletionsAlwaysAllowed``) needs `--force-delete`: a server
    /// restored from an old copy, or emptied, reads as their deletion there (helper-147).
    private func checkDeletions(_ plan: SyncPlan, _ snapshot: SyncSnapshot, listing: [CalendarCollection]) throws {
        let deleted = plan.deletedLocally.count
        guard !allowsMassDeletion, deleted > Self.deletionsAlwaysAllowed else { return }
        let synced = Set(snapshot.objects.lazy.filter { $0.base != nil }.map(\.taskID)).count
        guard deleted * 2 > synced else { return }
        let name = account.name.shellQuoted
        // Whole collections gone, as when another device removed a list: said by the list's name,
        // where the count alone read as a server that lost its data (helper-171).
        // Off a terminal (a timer's journal), by their paths: names are never logged (helper-173).
        let listed = Set(listing.map(\.href.path))
        let deletedIDs = Set(plan.deletedLocally)
        let listsLosingTasks = Set(snapshot.tasks.filter { deletedIDs.contains($0.id) }.compactMap(\.listID))
        let goneCollections = snapshot.collections.filter { !listed.contains($0.href) && $0.listID.map(listsLosingTasks.contains) == true }
        let gone = goneCollections.map { collection in
            namesCollections
                ? snapshot.lists.first { $0.id == collection.listID }.map { "the list “\($0.name.sanitizedForMessage)”" } ?? collection.href
                : collection.href
        }
        let collections =
            switch gone.count {
            case 0: ""
            case 1: " (the collection of \(gone[0]) is gone from the server)"
            default: " (the collections of \(gone.joined(separator: ", ")) are gone from the server)"
            }
        throw TaskWidgetError(
            .needsConfirmation,
            "the server no longer has \(deleted) of the \(counted(synced, "task")) this store synced with the account “\(account.name)”\(collections), "
                + "so this sync would delete them here (`taskwidget sync --account \(name)\(commandOptions) --dry-run --force-delete` lists them, "
                + "deleting nothing): if they were deleted on purpose, run `taskwidget sync --account \(name)"
                + "\(commandOptions) --force-delete`; if the server lost them (restored from an old copy, emptied), run `taskwidget sync "
                + "account forget \(name)\(commandOptions)` and sync again to send them back",
            context: "most synced tasks gone from the server")
    }

    /// The account's collections bound to lists, and what binding them needs.
    struct Binding: Sendable {
        var bindings: [CollectionBinding]
        /// Lists to create in the store for collections new to it.
        var newLists: [TaskList]
        /// Lists whose collection was renamed or recolored on the server since the last sync, as
        /// they become.
        var changedLists: [TaskList] = []
        /// Lists of this store to make collections for (MKCALENDAR), and the Inbox's when the
        /// configured one is missing.
        var listsToMake: [TaskList]
        var inboxToMake: String?
        /// Of ``listsToMake``, those the server refused to make.
        var listsNotMade: [SyncReport.KeptList] = []
        /// Whether the server deleted the Inbox's collection since the last sync. Then none is
        /// made in this round, which forgets it as it forgets a list's (the tasks not edited here
        /// since are deleted), and the next round makes a new one for the tasks that stay.
        var inboxVanished = false
        var home: AccountHome
        /// Collections whose list is gone here. They stay bound to it, so that its tasks'
        /// deletions reach the server, and the list does not come back unless a task of it is kept
        /// (``bind(_:snapshot:home:restoring:)``).
        var detached: [CollectionBinding] = []
        /// Of ``detached``, those whose list was deleted here (`list rm`) since the last sync: they
        /// are deleted on the server too once empty (``deleteCollections(ofListsDeletedHere:report:)``).
        var listsDeletedHere: [CollectionBinding] = []
    }

    /// Binds the listed collections to lists: the ones the store knows, the configured Inbox, and
    /// new lists for the rest. A known collection whose list is gone here stays bound to the
    /// gone list unless it is in `restoring` (a task of it is kept, edited on the server after its
    /// deletion here or new there: then its list comes back, as an edit wins over a deletion).
    func bind(_ listing: [CalendarCollection], snapshot: SyncSnapshot, home: AccountHome, restoring: Set<String> = []) -> Binding {
        let stored = Dictionary(snapshot.collections.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        let inboxName = account.inbox?.trimmingWhitespace
        var lists = snapshot.lists
        var bound = Set(snapshot.collections.compactMap(\.listID)).union(snapshot.listsOfOtherAccounts)
        var result = Binding(bindings: [], newLists: [], listsToMake: [], home: home)
        var hasInbox = false
        for collection in listing {
            let href = collection.href
            if let known = stored[href.path], known.isInbox || known.listID.map({ id in lists.contains { $0.id == id } }) == true {
                hasInbox = hasInbox || known.isInbox
                if let index = lists.firstIndex(where: { $0.id == known.listID }),
                    let changed = self.list(lists[index], as: collection, changedSince: known, among: lists)
                {
                    lists[index] = changed
                    result.changedLists.append(changed)
                }
                result.bindings.append(
                    CollectionBinding(href: href, url: collection.url, listID: known.listID, isInbox: known.isInbox, server: collection, stored: known))
                continue
            }
            if let known = stored[href.path], let listID = known.listID, !restoring.contains(href.path) {
                let binding = CollectionBinding(href: href, url: collection.url, listID: listID, isInbox: false, server: collection, stored: known)
                result.bindings.append(binding)
                result.detached.append(binding)
                if snapshot.listTombstones.contains(listID) { result.listsDeletedHere.append(binding) }
                continue
            }
            let name = collection.displayName.map { Validation.titleFromElsewhere($0) } ?? Validation.titleFromElsewhere(href.lastComponent)
            if let inboxName, !hasInbox,
                NameLookup.isSame(name, inboxName) || NameLookup.isSame(href.lastComponent, inboxName)
            {
                hasInbox = true
                result.bindings.append(CollectionBinding(href: href, url: collection.url, listID: nil, isInbox: true, server: collection, stored: nil))
                continue
            }
            let derivedID = SyncIdentity.listID(forCollection: href)
            let list: TaskList
            if let existing = lists.first(where: { $0.id == derivedID })
                ?? lists.first(where: { NameLookup.isSame($0.name, name) && !bound.contains($0.id) })
            {
                list = existing
            } else {
                list = TaskList(
                    id: derivedID, name: freeName(name, among: lists),
                    colorHex: SyncIdentity.colorHex(fromCalendarColor: collection.color) ?? TaskList.defaultColorHex,
                    createdAt: collection.listCreated.flatMap(InstantFormat.parse) ?? now,
                    sortOrder: collection.order ?? SortOrder.after(lists.map(\.sortOrder).max()))
                lists.append(list)
                result.newLists.append(list)
            }
            bound.insert(list.id)
            result.bindings.append(CollectionBinding(href: href, url: collection.url, listID: list.id, isInbox: false, server: collection, stored: nil))
        }
        // An account of one calendar makes none: new lists stay here. The lists it claims (synced
        // with it before its state was forgotten) are its own to make, first account or not.
        if !home.isOneCalendar {
            result.listsToMake = snapshot.lists.filter { !bound.contains($0.id) && (receivesNewLists || snapshot.claimedLists.contains($0.id)) }
        }
        if let inboxName, !inboxName.isEmpty, !hasInbox {
            if snapshot.collections.contains(where: \.isInbox) { result.inboxVanished = true } else { result.inboxToMake = inboxName }
        }
        return result
    }

    /// The Inbox's collection, named in the account, is made on the server when it has none of that
    /// name, unless one new to this store has a name near it: then the name is a typo (`Taks` for
    /// `Tasks`), and a second collection would split the Inbox's tasks from the phone's.
    /// Collections synced before as lists are no candidates: the name was not meant for them. But
    /// the very name of one is refused too: a second collection of that name would be made. An
    /// account of one calendar makes no collection: its inbox can only be that calendar.
    private func checkInboxName(_ binding: Binding) throws {
        // Checked too in the round that forgets a collection of the Inbox deleted there: the next
        // round makes the new one, and the first round's changes are in by then.
        guard let inbox = binding.inboxToMake ?? (binding.inboxVanished ? account.inbox?.trimmingWhitespace : nil) else { return }
        let names = { (binding: CollectionBinding) in [binding.server?.displayName, binding.href.lastComponent].compactMap { $0 } }
        let inboxShown = namesCollections ? "“\(inbox)”" : "the collection its inbox in config.toml names"
        if binding.home.isOneCalendar, let calendar = binding.bindings.first {
            guard names(calendar).contains(where: { NameLookup.isSame(Validation.titleFromElsewhere($0), inbox) }) else {
                throw TaskWidgetError(
                    .badConfig,
                    "the url of the account “\(account.name)” names one calendar, \(namesCollections ? shown(calendar) : calendar.href.path), which is not its inbox"
                        + (namesCollections ? " “\(inbox)”" : "")
                        + ": name that calendar in config.toml's inbox to keep the Inbox there, or leave inbox out (Inbox tasks then stay here)",
                    context: "inbox outside the one calendar")
            }
            throw TaskWidgetError(
                .badConfig,
                "the account “\(account.name)” keeps the Inbox in \(inboxShown), the one calendar its url names, which this store syncs "
                    + "as a list (\(calendar.href.path)): leave inbox out",
                context: "inbox collection synced as a list")
        }
        let synced = binding.bindings.filter { $0.stored != nil && !$0.isInbox }
        if let list = synced.first(where: { names($0).contains { NameLookup.isSame(Validation.titleFromElsewhere($0), inbox) } }) {
            throw TaskWidgetError(
                .badConfig,
                "the account “\(account.name)” keeps the Inbox in \(inboxShown), a collection this store syncs as a list "
                    + "(\(list.href.path)): name another in config.toml's inbox (one the server lacks is made), or leave inbox out",
                context: "inbox collection synced as a list")
        }
        let new = binding.bindings.filter { $0.stored == nil && !$0.isInbox }
        guard let meant = NameLookup.closest(to: inbox, among: new.map { $0.server?.displayName ?? $0.href.lastComponent }),
            let calendar = new.first(where: { ($0.server?.displayName ?? $0.href.lastComponent) == meant })
        else { return }
        throw TaskWidgetError(
            .badConfig,
            "the inbox \(namesCollections ? "“\(inbox)” " : "")of the account “\(account.name)” names no collection of the server: "
                + "did you mean \(shown(calendar))? (fix its inbox in config.toml; a collection of a name that no other is near is made)",
            context: "inbox collection not found")
    }

    /// A collection as errors name it: “Tasks” on a terminal, else `the calendar /alice/tasks/`.
    private func shown(_ binding: CollectionBinding) -> String {
        namesCollections
            ? "“\(Validation.titleFromElsewhere(binding.server?.displayName ?? binding.href.lastComponent))”" : "the calendar \(binding.href.path)"
    }

    /// The Inbox stays in the collection it first synced with. An account whose inbox in
    /// config.toml came to name another collection of the server since is refused: that one
    /// cannot become the Inbox (a list's tasks would turn into Inbox tasks, or the reverse). A
    /// name of no collection, as after a rename on the phone, changes nothing.
    private func checkInboxStays(_ binding: Binding) throws {
        guard let inbox = account.inbox?.trimmingWhitespace, !inbox.isEmpty,
            let current = binding.bindings.first(where: { $0.isInbox && $0.stored != nil })
        else { return }
        let named = { (binding: CollectionBinding) in
            [binding.server?.displayName, binding.href.lastComponent].compactMap { $0 }
                .contains { NameLookup.isSame(Validation.titleFromElsewhere($0), inbox) }
        }
        guard !named(current), let other = binding.bindings.first(where: { !$0.isInbox && named($0) }) else { return }
        let name = Validation.titleFromElsewhere(current.server?.displayName ?? current.href.lastComponent)
        throw TaskWidgetError(
            .badConfig,
            "the account “\(account.name)” keeps the Inbox in \(shown(current)), where it first synced, but its inbox in config.toml "
                + "now names another collection, \(namesCollections ? "“\(Validation.titleFromElsewhere(other.server?.displayName ?? other.href.lastComponent))” (\(other.href.path))" : shown(other)): "
                + (namesCollections ? "put back inbox = \"\(name)\"" : "put back the inbox that names the first"),
            context: "inbox moved to another collection")
    }

    /// `list` with the name and color its collection got on the server since the last sync
    /// (`known` has the ones it had then; none before the store remembered them), or `nil` when
    /// neither changed there. A rename here is not sent: it stays until the server's name changes.
    private func list(_ list: TaskList, as collection: CalendarCollection, changedSince known: SyncedCollection, among lists: [TaskList])
        -> TaskList?
    {
        var changed = list
        if let before = known.displayName, collection.rememberedName != before, let name = collection.displayName {
            let name = Validation.titleFromElsewhere(name)
            if name != list.name { changed.name = freeName(name, among: lists.filter { $0.id != list.id }) }
        }
        if let before = known.color, collection.rememberedColor != before, let hex = SyncIdentity.colorHex(fromCalendarColor: collection.color) {
            changed.colorHex = hex
        }
        return changed == list ? nil : changed
    }

    /// `name` for a list from the server, or `name 2`, `name 3`… when another list has it (names
    /// are unique regardless of case); a collection named Inbox becomes `Inbox (ACCOUNT)`.
    private func freeName(_ name: String, among lists: [TaskList]) -> String {
        let wanted = name.lowercased() == "inbox" ? "Inbox (\(account.name))" : name
        var listName = wanted
        var suffix = 2
        while lists.contains(where: { NameLookup.isSame($0.name, listName) }) {
            listName = "\(name) \(suffix)"
            suffix += 1
        }
        return listName
    }

    /// Makes collections on the server for this store's new lists (and the configured Inbox), and
    /// binds them. A server that refuses (403, 405, 409) leaves the list local, with a log line.
    private func makeCollections(_ binding: Binding) async throws(CalDAVError) -> Binding {
        var binding = binding
        let home = binding.home.url
        let base = DAVHref(serverHref: home.absoluteString, relativeTo: home)?.asCollection ?? DAVHref(path: "/")
        var made: [(list: TaskList?, url: URL)] = binding.listsToMake.map { list in
            (list, DAVHref(path: base.path + SyncIdentity.uid(for: list.id) + "/").url(on: home))
        }
        if let inbox = binding.inboxToMake {
            made.append((nil, DAVHref(path: base.path + SyncIdentity.uid(for: SyncIdentity.derivedUUID("inbox:" + inbox)) + "/").url(on: home)))
        }
        for (list, url) in made {
            do throws(CalDAVError) {
                let collection = try await client.makeCalendar(
                    at: url, displayName: list?.name ?? binding.inboxToMake ?? "Inbox", color: list.map { "#\($0.colorHex)" },
                    order: list?.sortOrder, listCreated: list.map { InstantFormat.utc($0.createdAt) })
                binding.bindings.append(
                    CollectionBinding(
                        href: collection.href, url: collection.url, listID: list?.id, isInbox: list == nil, server: collection, stored: nil))
            } catch where Self.refusals.contains(error.code) {
                logger.notice("the server does not allow making a collection; the list stays local", metadata: ["status": "\(error.status ?? 0)"])
                // Said in the summary too: a task moved into it left the server without a word (helper-147).
                binding.listsNotMade.append(SyncReport.KeptList(name: list?.name ?? binding.inboxToMake ?? "Inbox", status: error.status))
            }
        }
        binding.listsToMake = []
        binding.inboxToMake = nil
        return binding
    }

    // MARK: - Pull

    struct Pull: Sendable {
        var fetched: [RemoteObject] = []
        var removed: [DAVHref] = []
        var skipped: [SkippedObject] = []
        var states: [DAVHref: CollectionSyncState] = [:]

        mutating func add(_ other: Pull) {
            fetched += other.fetched
            removed += other.removed
            skipped += other.skipped
            states.merge(other.states) { _, new in new }
        }
    }

    /// Fetches what changed in each collection since the last sync: nothing for one whose
    /// sync-token (or ctag) the listing shows unchanged. Objects an earlier sync left alone (not
    /// valid iCalendar) are read again too, in one request per collection, until they are valid:
    /// one read broken on its way here stayed left alone, with its task's edits here unsent, until
    /// another client changed it. Every answer is complete before anything is kept; a failure
    /// throws and the store stays as it was.
    private func pull(_ bindings: [CollectionBinding], objects: [SyncedObject]) async throws(CalDAVError) -> Pull {
        var pull = Pull()
        let etagsByCollection = Dictionary(grouping: objects, by: \.collectionHref)
        for binding in bindings {
            guard let server = binding.server else { continue }
            let isUnchanged =
                if let stored = binding.stored, let token = stored.syncToken {
                    server.syncToken == token
                } else if let stored = binding.stored, let ctag = stored.ctag {
                    server.ctag == ctag
                } else { false }
            var changed: [CalendarObject] = []
            var seen: Set<DAVHref> = []
            if !isUnchanged {
                var known = CollectionSyncState(syncToken: binding.stored?.syncToken, ctag: binding.stored?.ctag)
                for object in etagsByCollection[binding.href.path] ?? [] {
                    known.etags[DAVHref(path: object.href)] = object.etag ?? ""
                }
                if binding.stored == nil { known = CollectionSyncState() }
                let changes = try await client.pullChanges(in: binding.url, since: known)
                pull.states[binding.href] = changes.state
                pull.removed += changes.removed
                changed = changes.changed
                seen = Set(changes.changed.map(\.href) + changes.removed)
            }
            let leftAlone = (etagsByCollection[binding.href.path] ?? [])
                .filter(\.isLeftAlone).map { DAVHref(path: $0.href) }.filter { !seen.contains($0) }
            if !leftAlone.isEmpty {
                let again = try await client.fetch(leftAlone, in: binding.url)
                changed += again.objects
                pull.removed += again.missing
            }
            for object in changed {
                do throws(ICalError) {
                    let calendar = try ICalendar(parsing: object.data)
                    let fields = try mapping.fields(from: calendar)
                    pull.fetched.append(
                        RemoteObject(
                            object: object, collectionHref: binding.href, uid: fields.uid,
                            taskID: SyncIdentity.taskID(forUID: fields.uid), fields: fields))
                } catch {
                    // An event, in a calendar that holds events and tasks, is no news.
                    if error.code != .noTodo {
                        logger.warning(
                            "a calendar object is not valid iCalendar; left alone",
                            metadata: ["href": "\(CalDAVError.redactPathForLog(object.href.percentEncodedPath))", "error": "\(error)"])
                    }
                    pull.skipped.append(
                        SkippedObject(
                            object: object, collectionHref: binding.href, holdsNoTodo: error.code == .noTodo))
                }
            }
        }
        return pull
    }

    private func planner(_ snapshot: SyncSnapshot, binding: Binding, pull: Pull, formerObjects: [UUID: SyncedObject] = [:]) -> SyncPlanner {
        SyncPlanner(
            account: account.name, snapshot: snapshot, bindings: binding.bindings, fetched: pull.fetched, removed: pull.removed,
            skipped: pull.skipped, pulledStates: pull.states, newLists: binding.newLists, changedLists: binding.changedLists, now: now,
            formerObjects: formerObjects)
    }

    // MARK: - Push

    /// Runs the server's writes in order and records each in the store as it succeeds (in
    /// batches). Returns the collections written to.
    private func push(_ operations: [RemoteOperation], collectionURLs: [String: URL], report: inout SyncReport) async throws -> [String] {
        var pending = SyncChanges()
        var written: [String] = []
        func record() throws {
            guard !pending.isEmpty else { return }
            try store.applySync(pending, account: account.name)
            pending = SyncChanges()
        }
        do {
            for (index, operation) in operations.enumerated() {
                try await perform(operation, collectionURLs: collectionURLs, recording: &pending, report: &report)
                progress?(index + 1, operations.count)
                written.append(operation.collectionHref)
                if pending.objectsToSave.count + pending.objectsToForget.count >= Self.recordBatchSize { try record() }
            }
        } catch {
            // What was written before the failure is recorded, so the next sync does not redo it.
            try? record()
            throw error
        }
        try record()
        return written
    }

    private func perform(
        _ operation: RemoteOperation, collectionURLs: [String: URL], recording pending: inout SyncChanges, report: inout SyncReport
    ) async throws {
        func url(of collection: String) -> URL {
            collectionURLs[collection] ?? DAVHref(path: collection).url(on: client.accountURL)
        }
        switch operation {
        case .create(let taskID, let uid, let collection, let href, let fields, let source, let agreed):
            var calendar = source.flatMap { try? ICalendar(parsing: $0) } ?? mapping.newCalendar(for: todoFields(uid, fields), now: now.date)
            if source != nil {
                _ = try? mapping.apply(todoFields(uid, fields), agreed: agreed.map { todoFields(uid, $0) }, to: &calendar, now: now.date)
            }
            let text = calendar.serialized()
            switch await Self.attempt({ () async throws(CalDAVError) in try await client.create(text, at: href, in: collection.url) }) {
            case .success(let etag):
                pending.objectsToSave.append(object(href, in: collection.href, taskID: taskID, uid: uid, etag: etag, text: text, base: fields))
                report.pushed += 1
            case .failure(let error) where error.code == .preconditionFailed:
                // Something is there already: our own object from an interrupted sync, or
                // another client's with the same UID. Read it and merge.
                try await resolveConflict(
                    taskID: taskID, uid: uid, href: href, collection: collection.href, url: collection.url, base: nil,
                    lastKnown: source.map { ($0, agreed) }, recording: &pending, report: &report)
            case .failure(let error) where error.refusesOneObject:
                noteRefusal(error, of: taskID, in: collection.href.path, report: &report)
            case .failure(let error):
                throw error
            }
        case .update(let taskID, let uid, let known, let text, let fields):
            var calendar: ICalendar
            do { calendar = try ICalendar(parsing: text) } catch { return }
            let agreed = known.base.map { todoFields(uid, $0) }
            _ = try? mapping.apply(todoFields(uid, fields), agreed: agreed, to: &calendar, now: now.date)
            let newText = calendar.serialized()
            let url = url(of: known.collectionHref)
            let href = DAVHref(path: known.href)
            switch await Self.attempt({ () async throws(CalDAVError) in
                try await client.update(newText, at: href, in: url, ifMatch: known.etag ?? "*")
            }) {
            case .success(let etag):
                pending.objectsToSave.append(
                    object(href, in: DAVHref(path: known.collectionHref), taskID: taskID, uid: uid, etag: etag, text: newText, base: fields))
                report.pushed += 1
            case .failure(let error) where error.code == .preconditionFailed:
                try await resolveConflict(
                    taskID: taskID, uid: uid, href: href, collection: DAVHref(path: known.collectionHref), url: url,
                    base: known.base, lastKnown: (text, known.base), recording: &pending, report: &report)
            case .failure(let error) where error.refusesOneObject:
                noteRefusal(error, of: taskID, in: known.collectionHref, report: &report)
            case .failure(let error):
                throw error
            }
        case .delete(let taskID, let known, let keepsTask):
            let url = url(of: known.collectionHref)
            let href = DAVHref(path: known.href)
            switch await Self.attempt({ () async throws(CalDAVError) in try await client.delete(at: href, in: url, ifMatch: known.etag) }) {
            case .success:
                pending.objectsToForget.append(known.href)
                pending.tombstonesToClear.append(taskID)  // if there is one, it has done its work
                // A task moved to another list is no deletion ("deleted 1" it said: helper-130).
                if !keepsTask { report.deleted += 1 }
            case .failure(let error) where error.code == .preconditionFailed:
                try await resolveConflict(
                    taskID: taskID, uid: known.uid ?? SyncIdentity.uid(for: taskID), href: href,
                    collection: DAVHref(path: known.collectionHref), url: url, base: known.base, removingCopy: keepsTask,
                    recording: &pending, report: &report)
            case .failure(let error) where error.refusesOneObject:
                var restored = false
                if !keepsTask { restored = try await restoreRefusedDeletion(of: taskID, known: known, url: url, recording: &pending) }
                noteRefusal(error, of: taskID, in: known.collectionHref, restored: restored, report: &report)
            case .failure(let error):
                throw error
            }
        }
    }

    /// A write the server refused for good: the other writes go on, the store records nothing for
    /// this one (so the next sync plans it again), and the report counts it. One refused write
    /// stopped the push, and every later sync, before it.
    private func noteRefusal(
        _ error: CalDAVError, of taskID: UUID, in collection: String, restored: Bool = false, report: inout SyncReport
    ) {
        report.refused.append(.init(status: error.status, collectionHref: collection, isRestoredDeletion: restored))
        logger.debug(
            "the server refused a write", metadata: ["task": "\(taskID.shortID)", "error": "\(error.detailedDescription)"])
    }

    /// A task deleted here whose deletion the server refused (a read-only calendar): the task
    /// comes back here as the server has it. Sent again, the deletion was refused at every sync,
    /// which failed for good, and `undo` had nothing to undo (helper-115). Returns false, and
    /// changes nothing, when the object cannot be read, its list was deleted here, or the store
    /// changed meanwhile.
    private func restoreRefusedDeletion(
        of taskID: UUID, known: SyncedObject, url: URL, recording pending: inout SyncChanges
    ) async throws -> Bool {
        let href = DAVHref(path: known.href)
        guard case .success(let remoteObject) = await Self.attempt({ () async throws(CalDAVError) in try await client.object(at: href, in: url) }),
            let parsed = try? ICalendar(parsing: remoteObject.data), let read = try? mapping.fields(from: parsed)
        else { return false }
        let snapshot = try store.syncSnapshot(account: account.name)
        let fields = read.storeFields(listID: known.base?.listID, base: known.base, task: nil)
        guard !snapshot.tasks.contains(where: { $0.id == taskID }),
            fields.listID.map({ listID in snapshot.lists.contains { $0.id == listID } }) ?? true
        else { return false }
        var changes = SyncChanges()
        changes.tasksToSave = [TaskItem(id: taskID, title: fields.title, createdAt: fields.createdAt ?? now).applying(fields)]
        changes.expectedTasks[taskID] = .some(nil)
        changes.tombstonesToClear = [taskID]
        do {
            try store.applySync(changes, account: account.name)
        } catch where TaskStore.isStoreChangedDuringSync(error) {
            return false
        }
        pending.objectsToSave.append(
            object(
                href, in: DAVHref(path: known.collectionHref), taskID: taskID, uid: known.uid ?? SyncIdentity.uid(for: taskID),
                etag: remoteObject.etag, text: remoteObject.data, base: fields))
        return true
    }

    /// A write met a 412: the object changed (or appeared) on the server meanwhile. Reads it,
    /// merges it with the store's task by the same rules, writes the store, and tries the write
    /// again with the new entity tag, a bounded number of times.
    ///
    /// `removingCopy`: the write was the DELETE of a copy the task left behind (it moved). The
    /// merge brings the other client's edit here, and the copy is deleted all the same: written
    /// again with the merge, it kept the task in two collections. The new copy gets the edit at
    /// the next sync, which finds the store changed since its write.
    ///
    /// `lastKnown`: the object's text as this store last had it, and the fields agreed on then.
    /// When the object was deleted meanwhile and the edit here wins, the task comes back from it,
    /// as it does when the deletion came before the sync: a new object held only the fields
    /// taskwidget keeps, and the other clients' notes, categories and alarms were lost (helper-163).
    private func resolveConflict(
        taskID: UUID, uid: String, href: DAVHref, collection: DAVHref, url: URL, base: TaskFields?,
        lastKnown: (text: String, agreed: TaskFields?)? = nil, removingCopy: Bool = false,
        recording pending: inout SyncChanges, report: inout SyncReport
    ) async throws {
        var base = base
        for _ in 1...Self.maximumConflictRounds {
            let remoteObject: CalendarObject?
            switch await Self.attempt({ () async throws(CalDAVError) in try await client.object(at: href, in: url) }) {
            case .success(let object): remoteObject = object
            case .failure(let error) where error.code == .notFound: remoteObject = nil
            case .failure(let error): throw error
            }
            let snapshot = try store.syncSnapshot(account: account.name)
            let task = snapshot.tasks.first { $0.id == taskID }
            let tombstone = snapshot.tombstones.first { $0.taskID == taskID }
            let local: TaskVersion = task.map { .present(TaskFields($0)) } ?? tombstone.map { .deleted(at: $0.deletedAt) } ?? .absent
            var remote: TaskVersion = .absent
            var calendar: ICalendar?
            if let remoteObject {
                guard let parsed = try? ICalendar(parsing: remoteObject.data), let fields = try? mapping.fields(from: parsed) else {
                    report.skipped.append(href.path)
                    return
                }
                calendar = parsed
                remote = .present(fields.storeFields(listID: task?.listID ?? base?.listID, base: base, task: task))
            }
            let result = TaskMerge.merge(base: base, local: local, remote: remote)
            if !result.conflicts.isEmpty { report.conflicts += 1 }
            var changes = SyncChanges()
            switch result.local {
            case .none: break
            case .write(let fields):
                let written = (task ?? TaskItem(id: taskID, title: fields.title, createdAt: fields.createdAt ?? now)).applying(fields)
                if let listID = written.listID, !snapshot.lists.contains(where: { $0.id == listID }) {
                    // An edit there wins over the deletion of its list here: the next sync's pull
                    // reads the edit, and brings the list back with it (``bind(_:snapshot:home:restoring:)``).
                    logger.debug("a task of a list deleted here changed on the server meanwhile; left to the next sync")
                    return
                }
                changes.tasksToSave = [written]
                changes.expectedTasks[taskID] = .some(task)
                if tombstone != nil { changes.tombstonesToClear = [taskID] }
                report.pulled += 1
            case .delete:
                if task != nil {
                    changes.tasksToDelete = [taskID: now]
                    changes.expectedTasks[taskID] = .some(task)
                    report.deleted += 1
                }
            }
            do {
                try store.applySync(changes, account: account.name)
            } catch where TaskStore.isStoreChangedDuringSync(error) {
                continue
            }
            let outcome = removingCopy ? (result.merged, MergeAction.delete) : (result.merged, result.remote)
            switch outcome {
            case (.present(let merged), .none):
                if let remoteObject {
                    pending.objectsToSave.append(
                        object(href, in: collection, taskID: taskID, uid: uid, etag: remoteObject.etag, text: remoteObject.data, base: merged))
                }
                return
            case (.present(let merged), .write):
                var updated: ICalendar
                if let calendar, case .present(let read) = remote {
                    updated = calendar
                    _ = try? mapping.apply(todoFields(uid, merged), agreed: todoFields(uid, read), to: &updated, now: now.date)
                } else if remoteObject == nil, let lastKnown, let known = try? ICalendar(parsing: lastKnown.text) {
                    updated = known
                    _ = try? mapping.apply(
                        todoFields(uid, merged), agreed: lastKnown.agreed.map { todoFields(uid, $0) }, to: &updated, now: now.date)
                } else {
                    updated = mapping.newCalendar(for: todoFields(uid, merged), now: now.date)
                }
                let text = updated.serialized()
                let etag = remoteObject?.etag
                let outcome = await Self.attempt { () async throws(CalDAVError) -> String? in
                    if remoteObject != nil {
                        return try await client.update(text, at: href, in: url, ifMatch: etag ?? "*")
                    }
                    return try await client.create(text, at: href, in: url)
                }
                switch outcome {
                case .success(let etag):
                    pending.objectsToSave.append(object(href, in: collection, taskID: taskID, uid: uid, etag: etag, text: text, base: merged))
                    report.pushed += 1
                    return
                case .failure(let error) where error.code == .preconditionFailed:
                    if case .present(let remoteFields) = remote { base = remoteFields }
                    continue
                case .failure(let error):
                    throw error
                }
            case (_, .delete):
                let etag = remoteObject?.etag
                switch await Self.attempt({ () async throws(CalDAVError) in try await client.delete(at: href, in: url, ifMatch: etag) }) {
                case .success:
                    pending.objectsToForget.append(href.path)
                    if tombstone != nil { pending.tombstonesToClear.append(taskID) }
                    report.deleted += 1
                    return
                case .failure(let error) where error.code == .preconditionFailed:
                    continue
                case .failure(let error):
                    throw error
                }
            default:
                pending.objectsToForget.append(href.path)
                if tombstone != nil { pending.tombstonesToClear.append(taskID) }
                return
            }
        }
        throw CalDAVError(
            .preconditionFailed, "Another client kept changing a task while this sync wrote it.", url: url, status: 412)
    }

    /// The outcome of a request as a value. The writes switch over it instead of catching a
    /// typed error in a `do` block: that pattern, with `inout` parameters in an async function,
    /// crashes Swift 6.3.1's SIL ownership verifier.
    private static func attempt<Value>(_ body: () async throws(CalDAVError) -> Value) async -> Result<Value, CalDAVError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    private func todoFields(_ uid: String, _ fields: TaskFields) -> TodoFields {
        TodoFields(uid: uid, fields: fields, timeZone: timeZone)
    }

    private func object(
        _ href: DAVHref, in collection: DAVHref, taskID: UUID, uid: String, etag: String?, text: String, base: TaskFields
    ) -> SyncedObject {
        SyncedObject(
            account: account.name, href: href.path, collectionHref: collection.path, taskID: taskID,
            uid: uid == SyncIdentity.uid(for: taskID) ? nil : uid, etag: etag, icalendar: Data(text.utf8), base: base)
    }

    /// After writing, asks each collection written to what changed since the token of the pull:
    /// when it is only our own writes, the new token is kept, so that the next sync with nothing
    /// changed costs one request. Anything else keeps the old token (the next sync fetches it).
    private func refreshTokens(of collections: Set<String>) async throws {
        guard !collections.isEmpty else { return }
        let snapshot = try store.syncSnapshot(account: account.name)
        let objects = Dictionary(snapshot.objects.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        var changes = SyncChanges()
        for stored in snapshot.collections where collections.contains(stored.href) {
            guard let token = stored.syncToken, let url = URL(string: stored.url) else { continue }
            guard let report = try? await client.syncCollection(url, token: token) else { continue }
            let onlyOurs =
                report.changed.allSatisfy { href, etag in etag != nil && objects[href.path]?.etag == etag }
                && report.removed.allSatisfy { objects[$0.path] == nil }
            guard onlyOurs else { continue }
            var updated = stored
            updated.syncToken = report.syncToken
            changes.collectionsToSave.append(updated)
        }
        try store.applySync(changes, account: account.name)
    }

    // MARK: - Report

    private func summarize(_ plan: SyncPlan, binding: Binding, snapshot: SyncSnapshot, into report: SyncReport) -> SyncReport {
        var report = report
        report.pulled = plan.pulled.count
        report.conflicts = plan.conflicts.count
        report.deleted = plan.deletedLocally.count
        report.skipped = plan.skipped.map(\.path)
        report.listsChanged = plan.local.listsRenamed.count
        report.listsKeptHere = binding.listsNotMade
        let listNames = Dictionary(
            (binding.changedLists + snapshot.lists + binding.newLists).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var byCollection: [String: SyncReport.CollectionPlan] = [:]
        let deletedHere = Set(binding.listsDeletedHere.map(\.href))
        for collection in binding.bindings {
            let name = collection.isInbox ? "Inbox" : collection.listID.flatMap { listNames[$0] }
            byCollection[collection.href.path] = SyncReport.CollectionPlan(
                name: name ?? collection.server?.displayName ?? collection.href.lastComponent, href: collection.href.path,
                isListDeletedHere: deletedHere.contains(collection.href), holdsOnlyTasks: collection.server?.holdsOnlyTasks ?? false)
        }
        for list in binding.listsToMake {
            byCollection["new:" + list.id.uuidString] = SyncReport.CollectionPlan(name: list.name, href: "(new)", isNew: true)
        }
        let newInboxKey = "new:inbox"
        if binding.inboxToMake != nil {
            byCollection[newInboxKey] = SyncReport.CollectionPlan(name: "Inbox", href: "(new)", isNew: true)
        }
        let vanished = Set(plan.local.collectionsToForget)
        let deletedThere = snapshot.collections.filter { vanished.contains($0.href) }
        for collection in deletedThere {
            let serverName = collection.displayName.flatMap { $0.isEmpty ? nil : Validation.titleFromElsewhere($0) }
            let name = collection.isInbox ? "Inbox" : collection.listID.flatMap { listNames[$0] } ?? serverName ?? collection.href
            byCollection[collection.href] = SyncReport.CollectionPlan(name: name, href: collection.href, isDeletedThere: true)
        }
        let tasks = Dictionary(plan.local.tasksToSave.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let snapshotTasks = Dictionary(snapshot.tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let bindingByList = Dictionary(
            binding.bindings.compactMap { b in b.listID.map { ($0, b.href.path) } } + deletedThere.compactMap { c in c.listID.map { ($0, c.href) } },
            uniquingKeysWith: { first, _ in first })
        let inboxHref =
            binding.bindings.first(where: \.isInbox)?.href.path ?? (binding.inboxToMake != nil ? newInboxKey : nil)
            ?? deletedThere.first(where: \.isInbox)?.href
        func key(forList listID: UUID?) -> String? {
            guard let listID else { return inboxHref }
            return bindingByList[listID] ?? (binding.listsToMake.contains { $0.id == listID } ? "new:" + listID.uuidString : nil)
        }
        // Ids as `ls` shows them: longer where two tasks' first 8 digits are the same.
        let shown = UUID.shownIDs(of: snapshot.tasks.map(\.id) + plan.pulled)
        func shownID(_ id: UUID) -> String { shown[id] ?? id.shortID }
        for id in plan.pulled {
            if let key = key(forList: tasks[id]?.listID) { byCollection[key]?.pulled.append(shownID(id)) }
        }
        for id in plan.deletedLocally {
            if let key = key(forList: snapshotTasks[id]?.listID) { byCollection[key]?.deletedLocally.append(shownID(id)) }
        }
        for operation in plan.operations {
            switch operation {
            case .create(let id, _, let collection, _, _, _, _):
                byCollection[collection.href.path]?.pushed.append(shownID(id))
            case .update(let id, _, let object, _, _):
                byCollection[object.collectionHref]?.pushed.append(shownID(id))
            case .delete(let id, let object, let keepsTask):
                if keepsTask {
                    byCollection[object.collectionHref]?.movedAway.append(shownID(id))
                } else {
                    byCollection[object.collectionHref]?.deletedRemotely.append(shownID(id))
                }
            }
        }
        // Tasks in lists whose collection is still to be made (the Inbox's too) are pushed there.
        for list in binding.listsToMake {
            let ids = snapshot.tasks.filter { $0.listID == list.id }.map { shownID($0.id) }
            byCollection["new:" + list.id.uuidString]?.pushed += ids
        }
        byCollection[newInboxKey]?.pushed += snapshot.tasks.filter { $0.listID == nil && !snapshot.leavesToAnotherAccount($0) }.map { shownID($0.id) }
        // A collection deleted there is made again in the sync's second round: the Inbox's
        // (unless another collection is the Inbox now), and a list's on the account that receives
        // new lists when a task of it stays. The tasks that stay go there.
        let deletedLocally = Set(plan.deletedLocally)
        for collection in deletedThere {
            let staying = snapshot.tasks.filter {
                $0.listID == collection.listID && !deletedLocally.contains($0.id) && !snapshot.leavesToAnotherAccount($0)
            }
            let isMadeAgain =
                collection.isInbox
                ? binding.inboxVanished
                : receivesNewLists && !staying.isEmpty && !binding.bindings.contains { $0.listID == collection.listID }
            guard isMadeAgain else { continue }
            byCollection[collection.href]?.isMadeAgain = true
            byCollection[collection.href]?.pushed += staying.map { shownID($0.id) }
        }
        // New ones share the href "(new)": then by name, so that two dry runs compare (helper-113).
        report.collections = byCollection.values.sorted { ($0.href, $0.name) < ($1.href, $1.name) }
        report.pushed = report.collections.reduce(0) { $0 + $1.pushed.count }
        report.deleted += report.collections.reduce(0) { $0 + $1.deletedRemotely.count }
        return report
    }
}
