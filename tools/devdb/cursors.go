package main

import (
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/x/bsonx/bsoncore"
)

// FerretDB v1.24 (SQLite) serves every open cursor from its own SQLite connection, out of
// a pool of 100 (internal/backends/sqlite/metadata/pool/opendb.go). A cursor stays open
// until it is exhausted, killed, or its client connection closes. Two things followed:
//
//   - a deadlock: 100 readers each between their first batch and their getMore hold the
//     whole pool; a findAndModify (agenda's job claim) takes the proxy's write lock and
//     waits for a connection; the readers' getMores wait for the write lock. Nobody moves.
//   - a leak: a client that leaves a cursor unfinished (an aborted stream, an abandoned
//     iterator) keeps a connection until its own connection closes, which a pooling driver
//     may never do.
//
// So the proxy counts what may hold a pool connection: every command in flight and every
// open cursor takes one slot of a budget below the pool size, leaving room for the one
// write that runs at a time. getMore and killCursors only move or close existing cursors:
// they take no new slot and never wait for the write lock (reading beside a write is what
// MongoDB does too; the lock exists for write-write atomicity). A cursor idle for longer
// than the idle timeout is killed (MongoDB kills idle cursors after 10 minutes; our pool is
// small), and a command that waits for a slot has the least recently used cursor idle for
// at least evictIdle killed for it.

const (
	// ferretPoolSize is FerretDB v1.24's SQLite pool (SetMaxOpenConns(100)).
	ferretPoolSize = 100
	// slotBudget leaves connections for the write in progress and FerretDB's own metadata queries.
	slotBudget = ferretPoolSize - 12
	// evictIdle: a cursor its client has not touched for this long may be killed for a waiting command.
	evictIdle = time.Second
	// evictWait: how long a command waits for a slot before a cursor is killed for it.
	evictWait = 200 * time.Millisecond
)

type openCursor struct {
	owner    *session // the connection that opened it: FerretDB closes it with that connection
	ns       string   // "db.collection", as FerretDB reported it
	lastUsed time.Time
}

// session is one client connection and its private backend connection.
type session struct {
	backend net.Conn
	// exchange serializes request/reply pairs on the backend: the client's, and the
	// tracker's killCursors for this session's cursors.
	exchange sync.Mutex
}

// cursorTracker knows every open cursor by id: drivers may send a getMore on any
// connection of their pool, not only on the one that opened the cursor.
type cursorTracker struct {
	mu       sync.Mutex
	slots    chan struct{}
	sessions map[*session]struct{}
	cursors  map[int64]*openCursor
	idle     time.Duration
	nextID   atomic.Int32
	killed   atomic.Int64
}

func newCursorTracker(idle time.Duration) *cursorTracker {
	return &cursorTracker{slots: make(chan struct{}, slotBudget), sessions: map[*session]struct{}{}, cursors: map[int64]*openCursor{}, idle: idle}
}

func (t *cursorTracker) open(backend net.Conn) *session {
	s := &session{backend: backend}
	t.mu.Lock()
	t.sessions[s] = struct{}{}
	t.mu.Unlock()
	return s
}

// close forgets a session whose client went away: closing its backend connection makes
// FerretDB close the session's cursors (they live in the connection's context).
func (t *cursorTracker) close(s *session) {
	s.backend.Close()
	t.mu.Lock()
	n := 0
	for id, c := range t.cursors {
		if c.owner == s {
			delete(t.cursors, id)
			n++
		}
	}
	delete(t.sessions, s)
	t.mu.Unlock()
	t.release(n)
}

// acquire takes one slot, having idle cursors killed while none is free.
func (t *cursorTracker) acquire() {
	for {
		select {
		case t.slots <- struct{}{}:
			return
		case <-time.After(evictWait):
			t.evictOne(evictIdle)
		}
	}
}

func (t *cursorTracker) release(n int) {
	for i := 0; i < n; i++ {
		<-t.slots
	}
}

// opened records the cursor a reply opened, if any; it reports whether the request's slot now belongs to it.
func (t *cursorTracker) opened(s *session, reply []byte) bool {
	id, ns := replyCursor(reply)
	if id == 0 {
		return false
	}
	t.mu.Lock()
	t.cursors[id] = &openCursor{owner: s, ns: ns, lastUsed: time.Now()}
	t.mu.Unlock()
	return true
}

// namespace is the "db.collection" of an open cursor ("" when unknown).
func (t *cursorTracker) namespace(id int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.cursors[id]; c != nil {
		return c.ns
	}
	return ""
}

// moved updates the cursor of a getMore from its reply: exhausted or failed, it is gone.
func (t *cursorTracker) moved(id int64, reply []byte) {
	next, _ := replyCursor(reply)
	t.mu.Lock()
	c, known := t.cursors[id]
	if known && next == id {
		c.lastUsed = time.Now()
		t.mu.Unlock()
		return
	}
	if known {
		delete(t.cursors, id)
	}
	t.mu.Unlock()
	if known {
		t.release(1)
	}
}

// forget drops cursors the client killed itself.
func (t *cursorTracker) forget(ids []int64) {
	n := 0
	t.mu.Lock()
	for _, id := range ids {
		if _, ok := t.cursors[id]; ok {
			delete(t.cursors, id)
			n++
		}
	}
	t.mu.Unlock()
	t.release(n)
}

// reap kills every cursor idle for longer than the idle timeout; run it periodically.
func (t *cursorTracker) reap() {
	for t.evictOne(t.idle) {
	}
}

// evictOne kills the least recently used cursor idle for at least minIdle; false when there is none
// (or its session is busy with a request, which will touch or close the cursor anyway).
func (t *cursorTracker) evictOne(minIdle time.Duration) bool {
	t.mu.Lock()
	var victim *session
	var victimID int64
	var oldest time.Time
	for id, c := range t.cursors {
		if time.Since(c.lastUsed) >= minIdle && (victim == nil || c.lastUsed.Before(oldest)) {
			victim, victimID, oldest = c.owner, id, c.lastUsed
		}
	}
	if victim == nil {
		t.mu.Unlock()
		return false
	}
	ns := t.cursors[victimID].ns
	t.mu.Unlock()

	if !victim.exchange.TryLock() {
		return false
	}
	defer victim.exchange.Unlock()
	db, collection := splitNamespace(ns)
	req := opMsgMessage(t.nextID.Add(1), 0, killCursorsCommand(db, collection, victimID))
	if _, err := victim.backend.Write(req); err == nil {
		_, _ = readMessage(victim.backend)
	}
	t.killed.Add(1)
	t.forget([]int64{victimID})
	return true
}

// stats: client connections, open cursors, slots in use, cursors killed by the proxy.
func (t *cursorTracker) stats() (clients, cursors, slots int, killed int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.sessions), len(t.cursors), len(t.slots), t.killed.Load()
}

func splitNamespace(ns string) (db, collection string) {
	for i := 0; i < len(ns); i++ {
		if ns[i] == '.' {
			return ns[:i], ns[i+1:]
		}
	}
	return ns, ""
}

// messageBody returns the body section (kind 0) of an OP_MSG, or nil.
func messageBody(msg []byte) bsoncore.Document {
	if len(msg) < 21 || int32(binary.LittleEndian.Uint32(msg[12:16])) != opMsg {
		return nil
	}
	body := msg[20:]
	for len(body) > 4 {
		kind := body[0]
		n := int(int32(binary.LittleEndian.Uint32(body[1:5])))
		if n < 5 || n > len(body)-1 {
			return nil
		}
		if kind == 0 {
			return bsoncore.Document(body[1 : 1+n])
		}
		body = body[1+n:]
	}
	return nil
}

// replyCursor returns cursor.id and cursor.ns of a reply (0 when it has no open cursor).
func replyCursor(reply []byte) (int64, string) {
	doc := messageBody(reply)
	if doc == nil {
		return 0, ""
	}
	v, err := doc.LookupErr("cursor", "id")
	if err != nil {
		return 0, ""
	}
	id, ok := v.AsInt64OK()
	if !ok {
		return 0, ""
	}
	ns, _ := doc.Lookup("cursor", "ns").StringValueOK()
	return id, ns
}

// getMoreCursor returns the cursor id of a getMore request.
func getMoreCursor(req []byte) int64 {
	doc := messageBody(req)
	if doc == nil {
		return 0
	}
	id, _ := doc.Lookup("getMore").AsInt64OK()
	return id
}

// killedCursors returns the ids of a killCursors request.
func killedCursors(req []byte) []int64 {
	doc := messageBody(req)
	if doc == nil {
		return nil
	}
	arr, ok := doc.Lookup("cursors").ArrayOK()
	if !ok {
		return nil
	}
	values, err := arr.Values()
	if err != nil {
		return nil
	}
	ids := make([]int64, 0, len(values))
	for _, v := range values {
		if id, ok := v.AsInt64OK(); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func killCursorsCommand(db, collection string, id int64) bsoncore.Document {
	idx, doc := bsoncore.AppendDocumentStart(nil)
	doc = bsoncore.AppendStringElement(doc, "killCursors", collection)
	aidx, doc := bsoncore.AppendArrayElementStart(doc, "cursors")
	doc = bsoncore.AppendInt64Element(doc, "0", id)
	doc, _ = bsoncore.AppendArrayEnd(doc, aidx)
	doc = bsoncore.AppendStringElement(doc, "$db", db)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	return doc
}

// statusReply answers the proxy's own command {devdbStatus: 1}: what holds the pool now.
func (t *cursorTracker) statusReply(req []byte, writeLocked bool) []byte {
	clients, cursors, slots, killed := t.stats()
	idx, doc := bsoncore.AppendDocumentStart(nil)
	doc = bsoncore.AppendInt32Element(doc, "connections", int32(clients))
	doc = bsoncore.AppendInt32Element(doc, "openCursors", int32(cursors))
	doc = bsoncore.AppendInt32Element(doc, "slotsInUse", int32(slots))
	doc = bsoncore.AppendInt32Element(doc, "slotBudget", slotBudget)
	doc = bsoncore.AppendInt64Element(doc, "cursorsKilled", killed)
	doc = bsoncore.AppendBooleanElement(doc, "writeLocked", writeLocked)
	doc = bsoncore.AppendDoubleElement(doc, "ok", 1)
	doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
	return opMsgMessage(0, binary.LittleEndian.Uint32(req[4:8]), doc)
}

// opMsgMessage frames one body document as an OP_MSG.
func opMsgMessage(requestID int32, responseTo uint32, doc []byte) []byte {
	size := 16 + 4 + 1 + len(doc)
	out := make([]byte, 0, size)
	out = binary.LittleEndian.AppendUint32(out, uint32(size))
	out = binary.LittleEndian.AppendUint32(out, uint32(requestID))
	out = binary.LittleEndian.AppendUint32(out, responseTo)
	out = binary.LittleEndian.AppendUint32(out, opMsg)
	out = binary.LittleEndian.AppendUint32(out, 0) // flagBits
	out = append(out, 0)
	return append(out, doc...)
}
