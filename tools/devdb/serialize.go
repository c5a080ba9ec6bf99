package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// FerretDB v1 executes findAndModify, update and delete as "query, then write each
// matched document back by _id" without holding a lock across the two steps. Two
// clients claiming the same document at once can therefore both win, and two
// concurrent $inc lose one increment. qrelay's correctness rests on atomic
// single-document updates, so the launcher puts this proxy in front of FerretDB: every
// command that may write runs alone in its database; read-only commands run side by side.
//
// The lock is per database ($db): a document belongs to one database, FerretDB keeps each
// database in its own SQLite file with its own connections, and no command writes to two.
// So qrelay's writes and those of the marketplace it talks to (its own database: a
// simulation's private marketplace, or the bundled one) run at the same time, as they do
// on MongoDB, instead of queueing behind each other.
//
// Each client connection gets its own backend connection (cursors and session state stay
// per connection); only the request/response exchange is guarded. FerretDB answers every
// request with exactly one reply, which is what makes the exchange well defined.
// getMore and killCursors bypass the lock, and open cursors are budgeted: cursors.go says why.

const (
	opReply = 1
	opQuery = 2004
	opMsg   = 2013

	maxMessageSize = 48 * 1000 * 1000
)

// readOnlyCommands never change data, so they may run concurrently with each other.
var readOnlyCommands = map[string]bool{
	"find": true, "getMore": true, "count": true, "distinct": true, "listCollections": true,
	"listIndexes": true, "listDatabases": true, "hello": true, "isMaster": true, "ismaster": true,
	"ping": true, "buildInfo": true, "buildinfo": true, "serverStatus": true, "dbStats": true,
	"collStats": true, "getParameter": true, "getCmdLineOpts": true, "connectionStatus": true,
	"whatsmyuri": true, "hostInfo": true, "killCursors": true, "endSessions": true, "getLog": true,
	"dataSize": true, "explain": true, "listCommands": true, "saslStart": true, "saslContinue": true,
}

type serializer struct {
	backend func() (net.Conn, error)
	locks   sync.Map     // database name -> *sync.RWMutex
	writing atomic.Int32 // write locks held now (devdbStatus reports whether any is)
	logger  *slog.Logger
	indexer *legacyIDIndex
	cursors *cursorTracker
	log     *commandLog // nil unless DEVDB_COMMAND_LOG asks for it (profile.go)
}

func (s *serializer) serve(l net.Listener) error {
	for {
		client, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go s.handle(client)
	}
}

func (s *serializer) handle(client net.Conn) {
	defer client.Close()
	backend, err := s.backend()
	if err != nil {
		s.logger.Error("cannot reach the embedded FerretDB", slog.Any("error", err))
		return
	}
	sess := s.cursors.open(backend)
	defer s.cursors.close(sess)

	for {
		req, err := readMessage(client)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				s.logger.Debug("client read ended", slog.Any("error", err))
			}
			return
		}
		res, err := s.exchange(sess, req)
		if err != nil {
			s.logger.Debug("backend exchange failed", slog.Any("error", err))
			return
		}
		if _, err := client.Write(res); err != nil {
			return
		}
	}
}

// roundTrip, timed for the command log when there is one.
func (s *serializer) roundTrip(sess *session, req []byte) ([]byte, error) {
	if s.log == nil {
		return roundTrip(sess, req)
	}
	ns := ""
	if command, _, _ := commandInfo(req); command == "getMore" {
		ns = s.cursors.namespace(getMoreCursor(req)) // before the reply, which may close the cursor
	}
	started := time.Now()
	res, err := roundTrip(sess, req)
	s.log.record(req, time.Since(started), ns)
	return res, err
}

// roundTrip sends one request on the session's backend connection and reads its reply.
func roundTrip(sess *session, req []byte) ([]byte, error) {
	sess.exchange.Lock()
	defer sess.exchange.Unlock()
	if _, err := sess.backend.Write(req); err != nil {
		return nil, err
	}
	return readMessage(sess.backend)
}

func (s *serializer) exchange(sess *session, req []byte) ([]byte, error) {
	command, collection, db := commandInfo(req)
	switch command {
	case "devdbStatus":
		return s.cursors.statusReply(req, s.writing.Load() > 0), nil
	case "getMore":
		res, err := s.roundTrip(sess, req)
		if err == nil {
			s.cursors.moved(getMoreCursor(req), res)
		}
		return res, err
	case "killCursors":
		res, err := roundTrip(sess, req)
		if err == nil {
			s.cursors.forget(killedCursors(req))
		}
		return res, err
	}

	s.cursors.acquire()
	keptByCursor := false
	defer func() {
		if !keptByCursor {
			s.cursors.release(1)
		}
	}()
	var res []byte
	var err error
	if isReadOnly(req) {
		res, err = s.read(sess, req, db)
	} else {
		if n := updateStatements(req); n > ferretDeadlockMargin {
			return errorReply(req, tooManyUpdates(n)), nil
		}
		res, err = s.write(sess, req, command, collection, db)
	}
	if err == nil {
		keptByCursor = s.cursors.opened(sess, res)
	}
	return res, err
}

// lockOf is the lock of a database.
func (s *serializer) lockOf(db string) *sync.RWMutex {
	if l, ok := s.locks.Load(db); ok {
		return l.(*sync.RWMutex)
	}
	l, _ := s.locks.LoadOrStore(db, new(sync.RWMutex))
	return l.(*sync.RWMutex)
}

func (s *serializer) read(sess *session, req []byte, db string) ([]byte, error) {
	lock := s.lockOf(db)
	lock.RLock()
	defer lock.RUnlock()
	res, err := s.roundTrip(sess, req)
	if err == nil && isHandshake(req) {
		limitWriteBatch(res)
	}
	return res, err
}

// write runs a command that may write (its name, collection and $db from commandInfo) alone in its database.
func (s *serializer) write(sess *session, req []byte, command, collection, db string) ([]byte, error) {
	lock := s.lockOf(db)
	lock.Lock()
	s.writing.Add(1)
	defer func() {
		s.writing.Add(-1)
		lock.Unlock()
	}()
	res, err := s.roundTrip(sess, req)
	if err == nil && isHandshake(req) {
		limitWriteBatch(res)
	}
	if err == nil && s.indexer != nil {
		if ierr := s.indexer.afterWrite(command, db, collection); ierr != nil {
			s.logger.Warn("cannot drop the launcher's former _id index", slog.String("db", db), slog.String("collection", collection), slog.Any("error", ierr))
		}
	}
	return res, err
}

// readMessage reads one whole wire protocol message (header included).
func readMessage(r io.Reader) ([]byte, error) {
	var header [16]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	size := int(int32(binary.LittleEndian.Uint32(header[0:4])))
	if size < 16 || size > maxMessageSize {
		return nil, fmt.Errorf("bad message length %d", size)
	}
	msg := make([]byte, size)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[16:]); err != nil {
		return nil, err
	}
	return msg, nil
}

// isReadOnly reports whether an OP_MSG's command (the first key of its body section)
// is known not to write. Anything else, OP_QUERY included, is treated as a write.
func isReadOnly(msg []byte) bool {
	if int32(binary.LittleEndian.Uint32(msg[12:16])) != opMsg || len(msg) < 16+4+1+4+1 {
		return false
	}
	body := msg[20:] // after the header and flagBits
	for len(body) > 0 {
		kind := body[0]
		body = body[1:]
		if kind == 0 {
			// BSON document: int32 length, then elements: type byte, cstring key, value
			if len(body) < 6 {
				return false
			}
			key := body[5:]
			for i, b := range key {
				if b == 0 {
					name := string(key[:i])
					if name == "aggregate" {
						return !writesInPipeline(body)
					}
					return readOnlyCommands[name]
				}
			}
			return false
		}
		// kind 1: document sequence (int32 size including itself); skip to the next section
		if len(body) < 4 {
			return false
		}
		n := int(int32(binary.LittleEndian.Uint32(body[:4])))
		if n < 4 || n > len(body) {
			return false
		}
		body = body[n:]
	}
	return false
}

// isHandshake reports hello/isMaster, in OP_MSG or in a legacy OP_QUERY.
func isHandshake(msg []byte) bool {
	if int32(binary.LittleEndian.Uint32(msg[12:16])) == opQuery {
		return true
	}
	command, _, _ := commandInfo(msg)
	return command == "hello" || command == "isMaster" || command == "ismaster"
}

// writesInPipeline is conservative: any $out or $merge bytes make the aggregate a write.
func writesInPipeline(doc []byte) bool {
	return containsCString(doc, "$out") || containsCString(doc, "$merge")
}

func containsCString(b []byte, s string) bool {
	needle := append([]byte(s), 0)
	for i := 0; i+len(needle) <= len(b); i++ {
		if string(b[i:i+len(needle)]) == string(needle) {
			return true
		}
	}
	return false
}
