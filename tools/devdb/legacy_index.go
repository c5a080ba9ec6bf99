package main

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sync"
)

// FerretDB v1.24 (SQLite) indexes _id on the expression `_ferretdb_sjson->"_id"` but looked
// documents up with `_ferretdb_sjson->'$._id'`; SQLite treats those as different expressions,
// so every lookup and update by _id scanned the whole table. The launcher used to add a
// second index on the lookup's spelling after the first write to a collection; FerretDB is
// now built with its lookups spelled as its own unique index (patches/0001-id-lookups-use-the-unique-index.patch), which
// serves them, and that second index was only a cost on every write. Data directories made
// before keep it: after the first write to a collection, the launcher drops it (once per
// collection and process; nothing when it is not there).

type legacyIDIndex struct {
	dataDir string
	mu      sync.Mutex
	done    map[string]bool // "db\x00collection"
	dbs     map[string]*sql.DB
}

func newLegacyIDIndex(dataDir string) *legacyIDIndex {
	return &legacyIDIndex{dataDir: dataDir, done: map[string]bool{}, dbs: map[string]*sql.DB{}}
}

// afterWrite is called with the write lock held, after FerretDB answered the command.
func (x *legacyIDIndex) afterWrite(command, db, collection string) error {
	if db == "" {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	switch command {
	case "drop":
		delete(x.done, db+"\x00"+collection)
		return nil
	case "dropDatabase":
		for k := range x.done {
			if len(k) > len(db) && k[:len(db)+1] == db+"\x00" {
				delete(x.done, k)
			}
		}
		if conn := x.dbs[db]; conn != nil {
			conn.Close()
			delete(x.dbs, db)
		}
		return nil
	}
	if collection == "" || x.done[db+"\x00"+collection] {
		return nil
	}
	conn := x.dbs[db]
	if conn == nil {
		var err error
		conn, err = sql.Open("sqlite", "file:"+filepath.Join(x.dataDir, db+".sqlite")+"?_pragma=busy_timeout(10000)")
		if err != nil {
			return err
		}
		conn.SetMaxOpenConns(1)
		x.dbs[db] = conn
	}
	var table string
	err := conn.QueryRow(`SELECT table_name FROM _ferretdb_collections WHERE name = ?`, collection).Scan(&table)
	if err == sql.ErrNoRows {
		return nil // the command did not create the collection (e.g. a failed insert)
	}
	if err != nil {
		return err
	}
	q := fmt.Sprintf(`DROP INDEX IF EXISTS %q`, table+"_devdb_id")
	if _, err := conn.Exec(q); err != nil {
		return err
	}
	x.done[db+"\x00"+collection] = true
	return nil
}

func (x *legacyIDIndex) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, conn := range x.dbs {
		conn.Close()
	}
}

// commandInfo extracts the command name, its string argument (the collection for CRUD
// commands) and $db from an OP_MSG body section of kind 0.
func commandInfo(msg []byte) (command, collection, db string) {
	if len(msg) < 21 || int32(binary.LittleEndian.Uint32(msg[12:16])) != opMsg {
		return "", "", ""
	}
	body := msg[20:]
	for len(body) > 0 {
		kind := body[0]
		body = body[1:]
		if kind == 1 {
			if len(body) < 4 {
				return
			}
			n := int(int32(binary.LittleEndian.Uint32(body[:4])))
			if n < 4 || n > len(body) {
				return
			}
			body = body[n:]
			continue
		}
		if kind != 0 || len(body) < 5 {
			return
		}
		size := int(int32(binary.LittleEndian.Uint32(body[:4])))
		if size < 5 || size > len(body) {
			return
		}
		doc := body[4 : size-1]
		first := true
		for len(doc) > 0 {
			typ := doc[0]
			key, rest, ok := cstring(doc[1:])
			if !ok {
				return
			}
			n := valueSize(typ, rest)
			if n < 0 || n > len(rest) {
				return
			}
			if first {
				command = key
				if typ == 0x02 {
					collection = bsonString(rest)
				}
				first = false
			}
			if key == "$db" && typ == 0x02 {
				db = bsonString(rest)
			}
			doc = rest[n:]
		}
		return
	}
	return
}

func cstring(b []byte) (string, []byte, bool) {
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), b[i+1:], true
		}
	}
	return "", nil, false
}

func bsonString(b []byte) string {
	if len(b) < 4 {
		return ""
	}
	n := int(int32(binary.LittleEndian.Uint32(b[:4])))
	if n < 1 || 4+n > len(b) {
		return ""
	}
	return string(b[4 : 4+n-1])
}

// valueSize returns the encoded size of a BSON value of type typ at the start of b, or -1.
func valueSize(typ byte, b []byte) int {
	i32 := func() int {
		if len(b) < 4 {
			return -1
		}
		return int(int32(binary.LittleEndian.Uint32(b[:4])))
	}
	switch typ {
	case 0x01, 0x09, 0x11, 0x12: // double, datetime, timestamp, int64
		return 8
	case 0x02, 0x0D, 0x0E: // string, javascript, symbol
		if n := i32(); n >= 1 {
			return 4 + n
		}
		return -1
	case 0x03, 0x04, 0x0F: // document, array, code with scope
		return i32()
	case 0x05: // binary
		if n := i32(); n >= 0 {
			return 4 + 1 + n
		}
		return -1
	case 0x06, 0x0A, 0x7F, 0xFF: // undefined, null, maxkey, minkey
		return 0
	case 0x07: // ObjectId
		return 12
	case 0x08: // bool
		return 1
	case 0x0B: // regex: two cstrings
		_, rest, ok := cstring(b)
		if !ok {
			return -1
		}
		_, rest2, ok := cstring(rest)
		if !ok {
			return -1
		}
		return len(b) - len(rest2)
	case 0x0C: // DBPointer
		if n := i32(); n >= 1 {
			return 4 + n + 12
		}
		return -1
	case 0x10: // int32
		return 4
	case 0x13: // decimal128
		return 16
	}
	return -1
}
