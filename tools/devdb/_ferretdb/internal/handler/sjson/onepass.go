// qrelay devdb: added to FerretDB's sjson package by the launcher's build (tools/devdb/patches/0004-sjson-one-pass-decoding.patch)
// (src/db/devdb-build.ts copies it in); not part of FerretDB.

package sjson

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// unmarshalOnePass decodes a stored document in one pass over its text, directed by the
// schema the text starts with. FerretDB's Unmarshal decodes each nesting level with
// encoding/json into raw messages and decodes each of those again (a value n levels deep is
// scanned n+1 times), and every scalar through a json.Decoder of its own: a quarter of the
// dev database's CPU under qrelay's simulation went there.
//
// It answers false for anything but what sjson.Marshal writes (the schema first, the fields
// in the schema's order, each once) and for any value it would have to judge: strings with
// escapes or bytes that are not plain UTF-8 are decoded by encoding/json itself, and on false
// the caller decodes the text with FerretDB's own code, which gives its document or its error.
// So a document it returns is the one FerretDB's decoding returns (onepass_test.go compares them).
func unmarshalOnePass(data []byte) (*types.Document, bool) {
	r := onePass{b: data}
	if !r.consume('{') {
		return nil, false
	}
	if k, ok := r.str(); !ok || k != "$s" || !r.consume(':') {
		return nil, false
	}
	sch, ok := r.schema()
	if !ok {
		return nil, false
	}
	d := must.NotFail(types.NewDocument())
	for _, key := range sch.Keys {
		// FerretDB's decoding drops "$s" from the fields before it looks the keys up
		if key == "$s" || !r.consume(',') {
			return nil, false
		}
		if !r.field(d, key, sch) {
			return nil, false
		}
	}
	if !r.consume('}') || !r.end() {
		return nil, false
	}
	return d, true
}

type onePass struct {
	b []byte
	i int
}

func (r *onePass) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *onePass) end() bool {
	r.ws()
	return r.i == len(r.b)
}

// consume skips white space and then c, answering whether c was there.
func (r *onePass) consume(c byte) bool {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

func (r *onePass) literal(word string) bool {
	r.ws()
	if bytes.HasPrefix(r.b[r.i:], []byte(word)) {
		r.i += len(word)
		return true
	}
	return false
}

// str reads a JSON string. One with escapes, or with bytes that are not valid UTF-8, is
// decoded by encoding/json (which replaces what it cannot decode): the same string as before.
func (r *onePass) str() (string, bool) {
	r.ws()
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		return "", false
	}
	start := r.i
	plain := true
	for j := start + 1; j < len(r.b); j++ {
		switch c := r.b[j]; {
		case c == '\\':
			plain = false
			j++ // the escaped character (the hex digits of \uXXXX are no quote)
		case c == '"':
			r.i = j + 1
			if raw := r.b[start+1 : j]; plain && utf8.Valid(raw) {
				return string(raw), true
			}
			var s string
			if json.Unmarshal(r.b[start:j+1], &s) != nil {
				return "", false
			}
			return s, true
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// number reads a JSON number's text (the grammar of RFC 8259, nothing more).
func (r *onePass) number() (string, bool) {
	r.ws()
	j := r.i
	digits := func() int {
		n := 0
		for j < len(r.b) && r.b[j] >= '0' && r.b[j] <= '9' {
			j++
			n++
		}
		return n
	}
	if j < len(r.b) && r.b[j] == '-' {
		j++
	}
	if j < len(r.b) && r.b[j] == '0' {
		j++
	} else if digits() == 0 {
		return "", false
	}
	if j < len(r.b) && r.b[j] == '.' {
		j++
		if digits() == 0 {
			return "", false
		}
	}
	if j < len(r.b) && (r.b[j] == 'e' || r.b[j] == 'E') {
		j++
		if j < len(r.b) && (r.b[j] == '+' || r.b[j] == '-') {
			j++
		}
		if digits() == 0 {
			return "", false
		}
	}
	text := string(r.b[r.i:j])
	r.i = j
	return text, true
}

// integer reads a JSON number that is a base-10 integer of at most `bits` bits (as encoding/json
// decodes one into an integer of that size: no fraction, no exponent).
func (r *onePass) integer(bits int) (int64, bool) {
	text, ok := r.number()
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, bits)
	return n, err == nil
}

// members reads a JSON object's members, calling member with each key (positioned at its value).
func (r *onePass) members(member func(key string) bool) bool {
	if !r.consume('{') {
		return false
	}
	if r.consume('}') {
		return true
	}
	for {
		k, ok := r.str()
		if !ok || !r.consume(':') || !member(k) {
			return false
		}
		if r.consume('}') {
			return true
		}
		if !r.consume(',') {
			return false
		}
	}
}

// items reads a JSON array, calling item for each element (positioned at it).
func (r *onePass) items(item func() bool) bool {
	if !r.consume('[') {
		return false
	}
	if r.consume(']') {
		return true
	}
	for {
		if !item() {
			return false
		}
		if r.consume(']') {
			return true
		}
		if !r.consume(',') {
			return false
		}
	}
}

// schema reads a document's schema: {"p": {key: elem, ...}, "$k": [key, ...]}.
func (r *onePass) schema() (*schema, bool) {
	s := new(schema)
	ok := r.members(func(key string) bool {
		switch key {
		case "p":
			s.Properties = map[string]*elem{}
			return r.members(func(name string) bool {
				e, ok := r.elem()
				s.Properties[name] = e
				return ok
			})
		case "$k":
			s.Keys = []string{}
			return r.items(func() bool {
				k, ok := r.str()
				s.Keys = append(s.Keys, k)
				return ok
			})
		}
		return false
	})
	return s, ok
}

// elem reads one element of a schema: {"t": type, "$s": schema, "o": options, "i": [elem, ...], "s": subtype}.
func (r *onePass) elem() (*elem, bool) {
	e := new(elem)
	ok := r.members(func(key string) bool {
		switch key {
		case "t":
			t, ok := r.str()
			e.Type = elemType(t)
			return ok
		case "$s":
			s, ok := r.schema()
			e.Schema = s
			return ok
		case "o":
			o, ok := r.str()
			e.Options = &o
			return ok
		case "i":
			e.Items = []*elem{}
			return r.items(func() bool {
				item, ok := r.elem()
				e.Items = append(e.Items, item)
				return ok
			})
		case "s":
			text, ok := r.number()
			if !ok {
				return false
			}
			n, err := strconv.ParseUint(text, 10, 8)
			subtype := types.BinarySubtype(n)
			e.Subtype = &subtype
			return err == nil
		}
		return false
	})
	return e, ok
}

// field reads the member `key` (the next one in the text) into d, with the value's schema from sch.
func (r *onePass) field(d *types.Document, key string, sch *schema) bool {
	k, ok := r.str()
	if !ok || k != key || !r.consume(':') || d.Has(key) {
		return false
	}
	v, ok := r.value(sch.Properties[key])
	if !ok {
		return false
	}
	d.Set(key, v)
	return true
}

// value reads one value as its schema element says (as unmarshalSingleValue does).
func (r *onePass) value(sch *elem) (any, bool) {
	if r.literal("null") {
		return types.Null, true
	}
	if sch == nil {
		return nil, false
	}
	switch sch.Type {
	case elemTypeObject:
		if sch.Schema == nil || !r.consume('{') {
			return nil, false
		}
		if r.consume('}') {
			// as FerretDB's decoding leaves an empty object: the zero document
			return new(types.Document), true
		}
		keys := sch.Schema.Keys
		if len(keys) == 0 {
			return nil, false
		}
		d := must.NotFail(types.NewDocument())
		for n, key := range keys {
			if n > 0 && !r.consume(',') {
				return nil, false
			}
			if !r.field(d, key, sch.Schema) {
				return nil, false
			}
		}
		if !r.consume('}') {
			return nil, false
		}
		return d, true
	case elemTypeArray:
		if sch.Items == nil {
			return nil, false
		}
		a := types.MakeArray(len(sch.Items))
		n := 0
		ok := r.items(func() bool {
			if n >= len(sch.Items) {
				return false
			}
			v, ok := r.value(sch.Items[n])
			n++
			if ok {
				a.Append(v)
			}
			return ok
		})
		if !ok || n != len(sch.Items) {
			return nil, false
		}
		return a, true
	case elemTypeDouble:
		text, ok := r.number()
		if !ok {
			return nil, false
		}
		f, err := strconv.ParseFloat(text, 64)
		return f, err == nil
	case elemTypeString:
		return r.str()
	case elemTypeBinData:
		s, ok := r.str()
		if !ok || sch.Subtype == nil {
			return nil, false
		}
		b, err := base64.StdEncoding.DecodeString(s)
		return types.Binary{B: b, Subtype: *sch.Subtype}, err == nil
	case elemTypeObjectID:
		s, ok := r.str()
		if !ok {
			return nil, false
		}
		b, err := hex.DecodeString(s)
		if err != nil || len(b) != types.ObjectIDLen {
			return nil, false
		}
		var id types.ObjectID
		copy(id[:], b)
		return id, true
	case elemTypeBool:
		if r.literal("true") {
			return true, true
		}
		return false, r.literal("false")
	case elemTypeDate:
		ms, ok := r.integer(64)
		return time.UnixMilli(ms), ok
	case elemTypeRegex:
		s, ok := r.str()
		if !ok || sch.Options == nil {
			return nil, false
		}
		return types.Regex{Pattern: s, Options: *sch.Options}, true
	case elemTypeInt:
		n, ok := r.integer(32)
		return int32(n), ok
	case elemTypeTimestamp:
		text, ok := r.number()
		if !ok {
			return nil, false
		}
		n, err := strconv.ParseUint(text, 10, 64)
		return types.Timestamp(n), err == nil
	case elemTypeLong:
		return r.integer(64)
	}
	return nil, false
}
