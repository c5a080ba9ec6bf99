package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/bson/bsontype"
	"go.mongodb.org/mongo-driver/x/bsonx/bsoncore"
)

// Diagnostics for finding where the dev database's time goes, off unless asked for by
// environment variables (the launcher's command line is fixed by the Node side):
//   DEVDB_CPUPROFILE=<file>   a Go CPU profile of the whole launcher (go tool pprof -top <binary> <file>)
//   DEVDB_COMMAND_LOG=<file>  per kind of command (name, database, collection, the filter's keys):
//                             how many ran and the time FerretDB took to answer them
// Both files are written when the launcher shuts down.

type commandTally struct {
	count int
	total time.Duration
}

type commandLog struct {
	mu    sync.Mutex
	tally map[string]*commandTally
	path  string
}

func startDiagnostics() (stop func()) {
	var stops []func()
	if path := os.Getenv("DEVDB_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fail("DEVDB_CPUPROFILE=%s: %v", path, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail("DEVDB_CPUPROFILE=%s: %v", path, err)
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

func newCommandLog() *commandLog {
	path := os.Getenv("DEVDB_COMMAND_LOG")
	if path == "" {
		return nil
	}
	return &commandLog{tally: map[string]*commandTally{}, path: path}
}

// record is called after each exchange with FerretDB; ns names a getMore's cursor ("db.collection").
func (l *commandLog) record(req []byte, took time.Duration, ns string) {
	command, collection, db := commandInfo(req)
	key := fmt.Sprintf("%s %s.%s %s", command, db, collection, filterShape(req))
	if ns != "" {
		key = fmt.Sprintf("%s %s", command, ns)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tally[key]
	if t == nil {
		t = &commandTally{}
		l.tally[key] = t
	}
	t.count++
	t.total += took
}

// write puts the tally in its file, the most costly kinds first.
func (l *commandLog) write() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := make([]string, 0, len(l.tally))
	var all time.Duration
	for k, t := range l.tally {
		keys = append(keys, k)
		all += t.total
	}
	sort.Slice(keys, func(i, j int) bool { return l.tally[keys[i]].total > l.tally[keys[j]].total })
	var b strings.Builder
	fmt.Fprintf(&b, "total %.1f s over %d kinds of command\n", all.Seconds(), len(keys))
	fmt.Fprintf(&b, "%10s %8s %9s  %s\n", "ms", "count", "ms each", "command database.collection {filter keys}")
	for _, k := range keys {
		t := l.tally[k]
		fmt.Fprintf(&b, "%10.0f %8d %9.2f  %s\n", float64(t.total.Microseconds())/1000, t.count, float64(t.total.Microseconds())/1000/float64(t.count), k)
	}
	if err := os.WriteFile(l.path, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "devdb: DEVDB_COMMAND_LOG=%s: %v\n", l.path, err)
	}
}

// filterShape names the top-level keys of a command's filter: `filter` (find, count),
// `query` (findAndModify, distinct), the first `$match` of a pipeline, or `q` of the
// first update or delete statement (in the body or in a document sequence).
func filterShape(msg []byte) string {
	body := messageBody(msg)
	if body == nil {
		return ""
	}
	for _, name := range []string{"filter", "query"} {
		if v, err := body.LookupErr(name); err == nil && v.Type == bsontype.EmbeddedDocument {
			return keysOf(v.Document())
		}
	}
	if v, err := body.LookupErr("pipeline"); err == nil && v.Type == bsontype.Array {
		if vals, err := v.Array().Values(); err == nil && len(vals) > 0 && vals[0].Type == bsontype.EmbeddedDocument {
			if m, err := vals[0].Document().LookupErr("$match"); err == nil && m.Type == bsontype.EmbeddedDocument {
				return "$match " + keysOf(m.Document())
			}
		}
	}
	for _, name := range []string{"updates", "deletes"} {
		if v, err := body.LookupErr(name); err == nil && v.Type == bsontype.Array {
			if vals, err := v.Array().Values(); err == nil && len(vals) > 0 {
				return statementShape(vals[0].Document(), len(vals))
			}
		}
	}
	if first, n := firstSequenceDocument(msg); first != nil {
		return statementShape(first, n)
	}
	return ""
}

func statementShape(stmt bsoncore.Document, n int) string {
	if q, err := stmt.LookupErr("q"); err == nil && q.Type == bsontype.EmbeddedDocument {
		return fmt.Sprintf("%s x%s", keysOf(q.Document()), bucket(n))
	}
	return fmt.Sprintf("x%s", bucket(n))
}

// bucket groups statement counts (1, 2-9, 10-99, ...) so that bulk writes of different sizes stay apart but few.
func bucket(n int) string {
	switch {
	case n <= 1:
		return "1"
	case n < 10:
		return "2-9"
	case n < 100:
		return "10-99"
	default:
		return "100+"
	}
}

func keysOf(doc bsoncore.Document) string {
	elems, err := doc.Elements()
	if err != nil {
		return "{?}"
	}
	keys := make([]string, 0, len(elems))
	for _, e := range elems {
		keys = append(keys, e.Key())
	}
	return "{" + strings.Join(keys, ",") + "}"
}

// firstSequenceDocument returns the first document of an OP_MSG's document sequence (kind 1) and how many it holds.
func firstSequenceDocument(msg []byte) (bsoncore.Document, int) {
	if len(msg) < 21 || int32(leUint32(msg[12:16])) != opMsg {
		return nil, 0
	}
	body := msg[20:]
	for len(body) > 5 {
		kind := body[0]
		n := int(int32(leUint32(body[1:5])))
		if n < 5 || n > len(body)-1 {
			return nil, 0
		}
		if kind == 1 {
			seq := body[5 : 1+n]
			_, rest, ok := cstring(seq)
			if !ok {
				return nil, 0
			}
			var first bsoncore.Document
			count := 0
			for len(rest) >= 5 {
				size := int(int32(leUint32(rest[:4])))
				if size < 5 || size > len(rest) {
					break
				}
				if first == nil {
					first = bsoncore.Document(rest[:size])
				}
				count++
				rest = rest[size:]
			}
			return first, count
		}
		body = body[1+n:]
	}
	return nil, 0
}

func leUint32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
