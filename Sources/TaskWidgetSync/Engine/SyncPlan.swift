import Foundation
import TaskWidgetCore
import TaskWidgetStore

/// A collection of the account as one sync sees it: where it is and which list it holds.
struct CollectionBinding: Sendable {
    var href: DAVHref
    var url: URL
    /// The list it maps to; `nil` with ``isInbox`` for the Inbox.
    var listID: UUID?
    var isInbox: Bool
    /// The server's description from this sync's listing.
    var server: CalendarCollection?
    /// What the store remembers of it; `nil` for a collection new to this store.
    var stored: SyncedCollection?
}

extension CalendarCollection {
    /// The display name as the store remembers it (``SyncedCollection/displayName``): empty for
    /// none, since `nil` there means not remembered yet.
    var rememberedName: String { displayName ?? "" }
    /// The color as the store remembers it, empty for none.
    var rememberedColor: String { color ?? "" }
}

/// A calendar object fetched in this sync, parsed.
struct RemoteObject: Sendable {
    /// Where it is, its entity tag and its text, as the server sent them.
    var object: CalendarObject
    var collectionHref: DAVHref
    var uid: String
    var taskID: UUID
    var fields: TodoFields
}

/// A calendar object fetched in this sync that holds no task: not valid iCalendar (left alone
/// and reported until it is fixed), or valid but without a VTODO (an event: not reported, unless
/// it was one of the store's tasks). Either is remembered with its entity tag, so that it is not
/// fetched again until it changes.
struct SkippedObject: Sendable {
    /// Where it is, its entity tag and its text, as the server sent them.
    var object: CalendarObject
    var collectionHref: DAVHref
    /// Valid iCalendar without a VTODO.
    var holdsNoTodo: Bool
}

/// One write to the server.
enum RemoteOperation: Sendable {
    /// PUT a new object (`If-None-Match: *`). `source` is the text to start from (the object's
    /// old text when it moves between collections, or when the server deleted it and the task
    /// stays), else a new calendar is made.
    case create(
        taskID: UUID, uid: String, collection: CollectionBinding, href: DAVHref, fields: TaskFields, source: String?,
        agreed: TaskFields?)
    /// PUT over a known object (`If-Match`).
    case update(taskID: UUID, uid: String, object: SyncedObject, text: String, fields: TaskFields)
    /// DELETE a known object (`If-Match`). `keepsTask`: the task lives on, moved to another
    /// collection or to a list this account does not sync; only this copy of it goes.
    case delete(taskID: UUID, object: SyncedObject, keepsTask: Bool)

    var taskID: UUID {
        switch self {
        case .create(let taskID, _, _, _, _, _, _), .update(let taskID, _, _, _, _), .delete(let taskID, _, _): taskID
        }
    }

    /// The collection the write goes to.
    var collectionHref: String {
        switch self {
        case .create(_, _, let collection, _, _, _, _): collection.href.path
        case .update(_, _, let object, _, _), .delete(_, let object, _): object.collectionHref
        }
    }
}

/// What one sync does, worked out before anything is written: the store's changes (one
/// transaction), then the server's writes in order, and counts for the summary.
struct SyncPlan: Sendable {
    var local = SyncChanges()
    var operations: [RemoteOperation] = []
    /// Tasks written in the store from the server (created or updated).
    var pulled: [UUID] = []
    /// Tasks whose merge found both sides changed the same field differently.
    var conflicts: [UUID] = []
    /// Tasks deleted in the store because the server deleted them.
    var deletedLocally: [UUID] = []
    /// Objects on the server that are not valid iCalendar, left alone.
    var skipped: [DAVHref] = []
}

extension SyncSnapshot {
    /// Whether `task`, in a list or the Inbox this account syncs, is another account's to sync: an
    /// Inbox task that another account with an Inbox has or claims. A task in this account's list
    /// is its own, even while another account still has its object: moved here from there, it is
    /// made here in this sync, and that account deletes its copy in its own (whichever syncs first).
    func leavesToAnotherAccount(_ task: TaskItem) -> Bool {
        task.listID == nil && tasksOfOtherAccounts.contains(task.id)
    }
}

/// The pure half of sync: from the store's snapshot and what the server said, the plan. Each task
/// is merged with ``TaskMerge`` against the base of the last sync.
struct SyncPlanner {
    /// The sort order of a VTODO without X-APPLE-SORT-ORDER (a phone's task): 0, the top, as
    /// Apple's clients read it, so every store gives it the same one without writing it back.
    static let missingSortOrder = 0

    var account: String
    var snapshot: SyncSnapshot
    var bindings: [CollectionBinding]
    /// Every object fetched in this sync (changed since the last), by collection.
    var fetched: [RemoteObject]
    /// Hrefs the server no longer has.
    var removed: [DAVHref]
    var skipped: [SkippedObject]
    /// The collections whose listing this sync read, with the token or ctag to remember.
    var pulledStates: [DAVHref: CollectionSyncState]
    /// Lists this sync creates in the store for collections new to it.
    var newLists: [TaskList]
    /// Lists whose collection the server renamed or recolored, as they become.
    var changedLists: [TaskList]
    var now: Instant
    /// The objects, by task, of the collections the server deleted, as the sync's first round
    /// read them: in its second round, which makes those collections again, a task of one goes
    /// back from its text (the store has forgotten it by then).
    var formerObjects: [UUID: SyncedObject] = [:]

    func plan() -> SyncPlan {
        var plan = SyncPlan()
        plan.local.listsToSave = newLists
        plan.local.listsRenamed = changedLists
        let bindingByHref = Dictionary(bindings.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        let inbox = bindings.first(where: \.isInbox)
        let bindingByList = Dictionary(
            bindings.compactMap { binding in binding.listID.map { ($0, binding) } }, uniquingKeysWith: { first, _ in first })
        func binding(forList listID: UUID?) -> CollectionBinding? {
            listID.map { bindingByList[$0] } ?? inbox
        }
        let tasks = Dictionary(snapshot.tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let tombstones = Dictionary(snapshot.tombstones.map { ($0.taskID, $0) }, uniquingKeysWith: { first, _ in first })
        let objectsByTask = Dictionary(grouping: snapshot.objects, by: \.taskID)
        let objectByHref = Dictionary(snapshot.objects.map { ($0.href, $0) }, uniquingKeysWith: { first, _ in first })
        let listIDs = Set(snapshot.lists.map(\.id)).union(newLists.map(\.id))

        // Collections: new ones are remembered, vanished ones forgotten with their objects.
        let listedHrefs = Set(bindings.filter { $0.server != nil }.map(\.href.path))
        for stored in snapshot.collections where !listedHrefs.contains(stored.href) {
            plan.local.collectionsToForget.append(stored.href)
            if let listID = stored.listID { plan.local.listsToDelete.append(listID) }
        }
        for binding in bindings where binding.server != nil {
            let pulled = pulledStates[binding.href]
            let unchanged = binding.stored.map { stored in
                pulled == nil && stored.url == binding.url.absoluteString && stored.listID == binding.listID
                    && stored.isInbox == binding.isInbox && stored.displayName == binding.server?.rememberedName
                    && stored.color == binding.server?.rememberedColor
            }
            if unchanged == true { continue }
            plan.local.collectionsToSave.append(
                SyncedCollection(
                    account: account, href: binding.href.path, url: binding.url.absoluteString, listID: binding.listID,
                    isInbox: binding.isInbox, syncToken: pulled.map(\.syncToken) ?? binding.stored?.syncToken,
                    ctag: pulled.map(\.ctag) ?? binding.stored?.ctag, displayName: binding.server?.rememberedName,
                    color: binding.server?.rememberedColor))
        }
        let vanished = Set(plan.local.collectionsToForget)

        // What the server has now, by task: fetched objects, else the known ones (whose content
        // is their base: the server has not changed them since).
        var remoteByTask: [UUID: RemoteObject] = [:]
        for object in fetched { remoteByTask[object.taskID] = object }
        let removedHrefs = Set(removed.map(\.path))
        for href in removed where objectByHref[href.path] != nil { plan.local.objectsToForget.append(href.path) }
        for skipped in skipped {
            // An event is no task: not reported, and its text not kept. An object that held one
            // of the store's tasks is, whatever it holds now, and its text is kept as a sign of it.
            let href = skipped.object.href
            let stored = objectByHref[href.path]
            let isReported = !skipped.holdsNoTodo || stored?.base != nil || stored?.isLeftAlone == true
            if isReported { plan.skipped.append(href) }
            let text = Data((isReported ? skipped.object.data : "").utf8)
            // Read again as it was (each sync reads such objects again): nothing to write.
            if let stored, stored.isLeftAlone == isReported, stored.etag == skipped.object.etag, stored.icalendar == text { continue }
            // The base stays: once the object is valid again, the merge needs the last common
            // copy, without which the later side's whole copy won and the other's edit was lost
            // (helper-84).
            plan.local.objectsToSave.append(
                SyncedObject(
                    account: account, href: href.path, collectionHref: skipped.collectionHref.path,
                    taskID: stored?.taskID ?? SyncIdentity.derivedUUID("invalid:" + href.path), uid: stored?.uid,
                    etag: skipped.object.etag, icalendar: text, base: stored?.base, isLeftAlone: isReported))
        }

        // Objects an earlier sync left alone are reported until they are fixed, on every sync,
        // since edits here to their tasks are not sent either; an event held no task (no text kept).
        let fetchedHrefs = Set(fetched.map(\.object.href.path))
        let reportedNow = Set(plan.skipped.map(\.path))
        for object in snapshot.objects
        where object.isLeftAlone && !fetchedHrefs.contains(object.href) && !reportedNow.contains(object.href)
            && !removedHrefs.contains(object.href) && !vanished.contains(object.collectionHref)
        {
            plan.skipped.append(DAVHref(path: object.href))
        }

        // Every task this account is concerned with.
        var keys = Set(objectsByTask.keys).union(remoteByTask.keys)
        for task in snapshot.tasks where binding(forList: task.listID) != nil && !snapshot.leavesToAnotherAccount(task) {
            keys.insert(task.id)
        }
        // By list; `nil` is the Inbox.
        var nextSortOrder = Dictionary(grouping: snapshot.tasks, by: \.listID)
            .mapValues { SortOrder.after($0.map(\.sortOrder).max()) }

        // A task whose object is not valid iCalendar is left alone on both sides until it is fixed:
        // one fetched valid now is fixed (each sync reads such objects again).
        // An event holds no task (and no base): nothing to merge either.
        let leftAlone = Set(snapshot.objects.filter { ($0.isLeftAlone || $0.base == nil) && remoteByTask[$0.taskID] == nil }.map(\.taskID))
            .union(skipped.compactMap { objectByHref[$0.object.href.path]?.taskID })
        // In the order of their UUID strings, which is the order of their bytes: comparing the
        // strings would format two of them at every comparison.
        for taskID in keys.sorted() where !leftAlone.contains(taskID) {
            // The object this account knows for the task (one: a move leaves the old one behind
            // only until its DELETE went through).
            let known = (objectsByTask[taskID] ?? []).first { $0.base != nil }
            let base = known?.base
            let task = tasks[taskID]
            let local: TaskVersion =
                if let task { .present(TaskFields(task)) } else if let tombstone = tombstones[taskID], known != nil {
                    .deleted(at: tombstone.deletedAt)
                } else { .absent }

            let remoteObject = remoteByTask[taskID]
            var remote: TaskVersion
            if let remoteObject {
                let listID = bindingByHref[remoteObject.collectionHref]?.listID
                remote = .present(remoteObject.fields.storeFields(listID: listID, base: base, task: task))
            } else if let known, !removedHrefs.contains(known.href), !vanished.contains(known.collectionHref), let base {
                remote = .present(base)
            } else {
                remote = .absent
            }

            // A deletion here against an object changed there since: the change is an edit, even
            // one to what the store does not keep (a note, a priority), whose fields then read as
            // the base; its LAST-MODIFIED says whether it came after the deletion (helper-75).
            let changedThere = remoteObject.map { Data($0.object.data.utf8) != known?.icalendar } ?? false
            let mergeBase = if case .deleted = local, changedThere { nil as TaskFields? } else { base }
            // One whose LAST-MODIFIED did not move (Python caldav's complete() leaves it) was
            // changed at a time it does not say, after the last sync as the deletion was: it is
            // kept, as seen now, where the deletion took it without a word (helper-130).
            if case .deleted = local, changedThere, case .present(var fields) = remote,
                fields.modifiedAt.map({ modified in base?.modifiedAt.map { modified <= $0 } ?? false }) ?? true
            {
                fields.modifiedAt = now
                remote = .present(fields)
            }
            let result = TaskMerge.merge(base: mergeBase, local: local, remote: remote)
            if !result.conflicts.isEmpty { plan.conflicts.append(taskID) }

            // The store.
            switch result.local {
            case .none:
                if case .present = result.merged, tombstones[taskID] != nil, task != nil {
                    plan.local.tombstonesToClear.append(taskID)
                }
                // The server keeps whole seconds: the store's copy follows, so that every store
                // syncing this server holds the same instants.
                if case .present = result.merged, let task, TaskFields(task) != TaskFields(task).normalized() {
                    plan.local.tasksToSave.append(task.applying(TaskFields(task).normalized()))
                    plan.local.expectedTasks[taskID] = .some(task)
                }
            case .write(let fields):
                var fields = fields
                if let listID = fields.listID, !listIDs.contains(listID) { fields.listID = task?.listID }
                var written = (task ?? TaskItem(id: taskID, title: fields.title, createdAt: fields.createdAt ?? fields.modifiedAt ?? now))
                    .applying(fields)
                if fields.sortOrder == nil && (task == nil || task?.listID != written.listID) {
                    written.sortOrder = nextSortOrder[written.listID, default: 0]
                    nextSortOrder[written.listID] = SortOrder.after(written.sortOrder)
                }
                plan.local.tasksToSave.append(written)
                plan.local.expectedTasks[taskID] = .some(task)
                if tombstones[taskID] != nil { plan.local.tombstonesToClear.append(taskID) }
                plan.pulled.append(taskID)
            case .delete:
                if task != nil {
                    plan.local.tasksToDelete[taskID] = now
                    plan.local.expectedTasks[taskID] = .some(task)
                    plan.deletedLocally.append(taskID)
                }
                if tombstones[taskID] != nil { plan.local.tombstonesToClear.append(taskID) }
            }

            // The server, and what the store remembers of its object until the write is done.
            let ownUID = SyncIdentity.uid(for: taskID)
            let uid = remoteObject?.uid ?? known?.uid ?? ownUID
            let storedUID = uid == ownUID ? nil : uid
            let current: SyncedObject? = remoteObject.map { remote in
                SyncedObject(
                    account: account, href: remote.object.href.path, collectionHref: remote.collectionHref.path, taskID: taskID,
                    uid: storedUID, etag: remote.object.etag, icalendar: Data(remote.object.data.utf8), base: nil)
            } ?? known.flatMap { removedHrefs.contains($0.href) || vanished.contains($0.collectionHref) ? nil : $0 }
            let currentText = current.map { String(decoding: $0.icalendar, as: UTF8.self) }

            switch (result.merged, result.remote) {
            case (.present(let merged), .none):
                // Saved only when something about it changed: a sync with nothing changed
                // writes nothing.
                if var current, remoteObject != nil || known?.base != merged {
                    current.base = merged
                    plan.local.objectsToSave.append(current)
                }
            case (.present(let merged), .write):
                // The object's base is what the server holds now, as the store reads it: what the
                // write then changes is what was changed here, and no more (``TodoMapping/apply``).
                var current = current
                if var read = current, case .present(let remoteFields) = remote {
                    read.base = remoteFields
                    plan.local.objectsToSave.append(read)
                    current = read
                }
                guard let target = binding(forList: merged.listID) else {
                    // Now in a list this account does not sync: it leaves this server.
                    if let current { plan.operations.append(.delete(taskID: taskID, object: current, keepsTask: true)) }
                    continue
                }
                if let current, current.collectionHref == target.href.path, let currentText {
                    plan.operations.append(.update(taskID: taskID, uid: uid, object: current, text: currentText, fields: merged))
                } else {
                    // Moved between collections: from its text there. Deleted there and kept here
                    // (edited here since): from the text it had there, so that what other clients
                    // wrote into it (notes, categories, other alarms) goes back with it.
                    let origin = current ?? known ?? formerObjects[taskID]
                    let uid = origin.map { $0.uid ?? ownUID } ?? uid  // the UID its text has
                    let href = CalDAVClient.objectHref(forUID: uid, in: target.url)
                    plan.operations.append(
                        .create(
                            taskID: taskID, uid: uid, collection: target, href: href, fields: merged,
                            source: origin.map { String(decoding: $0.icalendar, as: UTF8.self) }, agreed: origin?.base))
                    if let current { plan.operations.append(.delete(taskID: taskID, object: current, keepsTask: true)) }
                }
            case (_, .delete):
                if let current { plan.operations.append(.delete(taskID: taskID, object: current, keepsTask: false)) }
            case (.deleted, .none), (.absent, .none):
                for object in objectsByTask[taskID] ?? [] where !plan.local.objectsToForget.contains(object.href) {
                    plan.local.objectsToForget.append(object.href)
                }
                if tombstones[taskID] != nil, !plan.local.tombstonesToClear.contains(taskID) {
                    plan.local.tombstonesToClear.append(taskID)
                }
            case (_, .write):
                break  // a write with nothing merged does not happen
            }
        }
        return plan
    }
}

extension TodoFields {
    /// The task fields of a VTODO as the store takes them: the title cleaned up, and what the
    /// object lacks filled in from the fields agreed at the last sync (`base`), else from the
    /// store's `task`, so that the next sync does not see them change here: the sort order (none:
    /// ``SyncPlanner/missingSortOrder``), the creation time, and the completion time of a task
    /// done without COMPLETED (another client's CANCELLED). An open task has no completion time
    /// in the store: a COMPLETED beside STATUS:NEEDS-ACTION or IN-PROCESS is left on the server.
    func storeFields(listID: UUID?, base: TaskFields?, task: TaskItem?) -> TaskFields {
        var fields = taskFields(listID: listID)
        fields.title = Validation.titleFromElsewhere(fields.title)
        fields.sortOrder = fields.sortOrder ?? base?.sortOrder ?? SyncPlanner.missingSortOrder
        fields.createdAt = fields.createdAt ?? base?.createdAt ?? fields.modifiedAt
        if fields.state != .completed {
            // Agreed as the store holds it: kept as the server's, the next sync saw the store's
            // none as a change here and removed it from the phone's task (helper-144).
            fields.completedAt = nil
        } else if fields.completedAt == nil {
            fields.completedAt = base?.completedAt ?? task?.completedAt ?? fields.modifiedAt
        }
        return fields
    }
}
