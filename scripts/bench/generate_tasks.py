#!/usr/bin/env python3
"""Writes the same N generated tasks as a taskwidget import file and a Taskwarrior import file.

Realistic shape: 6 lists plus the Inbox, about 20 % completed, 70 % of tasks with a due date
spread from 30 days ago to 60 days ahead (so some are overdue, some due today), fixed seed.
Usage: generate_tasks.py N NOW_ISO OUT_DIR  ->  OUT_DIR/taskwidget-N.json, OUT_DIR/taskwarrior-N.json
"""
import json, random, sys, uuid
from datetime import datetime, timedelta, timezone

count, now, out = int(sys.argv[1]), datetime.fromisoformat(sys.argv[2]).astimezone(timezone.utc), sys.argv[3]
rng = random.Random(count)
lists = ["Work", "Home", "Errands", "Health", "Reading", "Side project"]
colors = ["007AFF", "34C759", "FF9500", "FF2D55", "AF52DE", "5AC8FA"]
list_ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() for _ in lists]
words = "call write review buy fix plan send book pay clean read draft check update prepare".split()
things = "report invoice dentist groceries slides budget car tickets rent garden notes code taxes".split()

def iso(t):  # taskwidget export format
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"

def tw(t):  # Taskwarrior's
    return t.strftime("%Y%m%dT%H%M%SZ")

tasks, warrior = [], []
for index in range(count):
    task_id = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()
    created = now - timedelta(days=rng.uniform(1, 120))
    completed = rng.random() < 0.2
    due = now + timedelta(minutes=rng.randint(-30 * 1440, 60 * 1440)) if rng.random() < 0.7 else None
    list_index = rng.randrange(len(lists) + 1) - 1  # -1: the Inbox
    title = f"{rng.choice(words).capitalize()} {rng.choice(things)} {index}"
    task = {"id": task_id, "title": title, "isCompleted": completed, "state": "completed" if completed else "notStarted",
            "createdAt": iso(created), "modifiedAt": iso(created), "sortOrder": index}
    if due: task["dueDate"] = iso(due.replace(second=0, microsecond=0))
    if completed: task["completedAt"] = iso(created + timedelta(days=1))
    if list_index >= 0: task["listID"] = list_ids[list_index]
    tasks.append(task)
    entry = {"uuid": task_id.lower(), "description": title, "status": "completed" if completed else "pending",
             "entry": tw(created), "modified": tw(created)}
    if due: entry["due"] = tw(due.replace(second=0, microsecond=0))
    if completed: entry["end"] = tw(created + timedelta(days=1))
    if list_index >= 0: entry["project"] = lists[list_index].replace(" ", "_")
    warrior.append(entry)

export = {"schema": "taskwidget.export/1", "habits": [], "tasks": tasks,
          "lists": [{"id": i, "name": n, "colorHex": c, "createdAt": iso(now - timedelta(days=200)), "sortOrder": k}
                    for k, (i, n, c) in enumerate(zip(list_ids, lists, colors))]}
with open(f"{out}/taskwidget-{count}.json", "w") as f: json.dump(export, f)
with open(f"{out}/taskwarrior-{count}.json", "w") as f: json.dump(warrior, f)
