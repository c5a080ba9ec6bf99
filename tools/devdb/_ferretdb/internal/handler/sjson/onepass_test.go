// qrelay devdb: added to FerretDB's sjson package with onepass.go (tools/devdb/patches/0004-sjson-one-pass-decoding.patch).

package sjson

import (
	"bytes"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/AlekSi/pointer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// TestOnePassAsFerretDB: for the documents of the package's own test cases and random
// documents of every type, the one pass returns the document FerretDB's decoding returns;
// and for their texts altered (bytes changed, inserted, cut), Unmarshal answers as FerretDB's
// decoding does, a document or an error.
func TestOnePassAsFerretDB(t *testing.T) {
	t.Parallel()

	docs := []*types.Document{}
	for _, tc := range documentTestCases {
		if d, ok := tc.v.(*documentType); ok && tc.jErr == "" {
			docs = append(docs, must.NotFail(types.NewDocument("doc", pointer.To(types.Document(*d)))))
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		docs = append(docs, randomDocument(rng, 0, true))
	}

	for i, d := range docs {
		b, err := Marshal(d)
		require.NoError(t, err)

		want, err := unmarshalByLevels(b)
		require.NoError(t, err, "document %d: %s", i, b)
		got, ok := unmarshalOnePass(b)
		require.True(t, ok, "document %d: %s", i, b)
		require.Equal(t, want, got, "document %d: %s", i, b)

		for _, alt := range alterations(rng, b) {
			want, wantErr := unmarshalByLevels(alt)
			got, err := Unmarshal(alt)
			if wantErr != nil {
				require.Error(t, err, "%s", alt)
				require.Nil(t, got)
				continue
			}
			require.NoError(t, err, "%s", alt)
			require.Equal(t, want, got, "%s", alt)
		}
	}
}

// TestOnePassDeclines: texts FerretDB's decoding reads (or refuses) that the one pass leaves to it.
func TestOnePassDeclines(t *testing.T) {
	t.Parallel()

	for name, text := range map[string]string{
		"FieldsOutOfOrder": `{"$s":{"p":{"a":{"t":"int"},"b":{"t":"int"}},"$k":["a","b"]},"b":2,"a":1}`,
		"SchemaLast":       `{"a":1,"$s":{"p":{"a":{"t":"int"}},"$k":["a"]}}`,
		"DuplicateKey":     `{"$s":{"p":{"a":{"t":"int"}},"$k":["a","a"]},"a":1,"a":1}`,
		"UnknownSchemaKey": `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"],"x":1},"a":1}`,
		"IntNotInt":        `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1.5}`,
		"IntOverflow":      `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":2147483648}`,
		"NoSchemaOfValue":  `{"$s":{"p":{},"$k":["a"]},"a":1}`,
		"TrailingBytes":    `{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1}x`,
		"BadObjectID":      `{"$s":{"p":{"a":{"t":"objectId"}},"$k":["a"]},"a":"0011"}`,
		"ArrayTooLong":     `{"$s":{"p":{"a":{"t":"array","i":[{"t":"int"}]}},"$k":["a"]},"a":[1,2]}`,
	} {
		text := text
		t.Run(name, func(t *testing.T) {
			t.Parallel()

			_, ok := unmarshalOnePass([]byte(text))
			assert.False(t, ok)
			want, wantErr := unmarshalByLevels([]byte(text))
			got, err := Unmarshal([]byte(text))
			assert.Equal(t, wantErr, err)
			assert.Equal(t, want, got)
		})
	}
}

// TestOnePassStrings: escapes and bytes that are not UTF-8 decode as encoding/json decodes them.
func TestOnePassStrings(t *testing.T) {
	t.Parallel()

	for _, s := range []string{
		`plain`, `quote \" and backslash \\`, `\u00e9\u2028\ud83d\ude00`, `\ud800 lone`, "bad \xff byte", `<&>`, `\/\b\f\n\r\t`, ``,
	} {
		text := `{"$s":{"p":{"a":{"t":"string"}},"$k":["a"]},"a":"` + s + `"}`
		want, err := unmarshalByLevels([]byte(text))
		require.NoError(t, err, text)
		got, ok := unmarshalOnePass([]byte(text))
		require.True(t, ok, text)
		require.Equal(t, want, got, text)
	}
}

var keyRunes = []rune("abcXYZ_09.é中<>&")

func randomKey(rng *rand.Rand) string {
	var sb strings.Builder
	for n := 1 + rng.Intn(6); n > 0; n-- {
		sb.WriteRune(keyRunes[rng.Intn(len(keyRunes))])
	}
	return sb.String()
}

var stringPieces = []string{"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "<", ">", "&", "é", "中", "😀", "\u2028", "\xff", "0"}

func randomString(rng *rand.Rand) string {
	var sb strings.Builder
	for n := rng.Intn(12); n > 0; n-- {
		sb.WriteString(stringPieces[rng.Intn(len(stringPieces))])
	}
	return sb.String()
}

func randomValue(rng *rand.Rand, depth int) any {
	kinds := 13
	if depth >= 3 {
		kinds = 11 // no more nesting
	}
	switch rng.Intn(kinds) {
	case 0:
		return []float64{0, math.Copysign(0, -1), 1.5, -2, 1e300, 5e-324, math.MaxFloat64, rng.NormFloat64() * 1e6}[rng.Intn(8)]
	case 1:
		return randomString(rng)
	case 2:
		b := make([]byte, rng.Intn(20))
		rng.Read(b)
		return types.Binary{B: b, Subtype: []types.BinarySubtype{0, 4, 5, 0x80}[rng.Intn(4)]}
	case 3:
		var id types.ObjectID
		rng.Read(id[:])
		return id
	case 4:
		return rng.Intn(2) == 0
	case 5:
		return time.UnixMilli(rng.Int63n(1<<45) - 1<<44)
	case 6:
		return types.Null
	case 7:
		return types.Regex{Pattern: randomString(rng), Options: []string{"", "i", "imsx"}[rng.Intn(3)]}
	case 8:
		return []int32{0, -1, math.MaxInt32, math.MinInt32, rng.Int31()}[rng.Intn(5)]
	case 9:
		return types.Timestamp([]uint64{0, 1, math.MaxUint64, rng.Uint64()}[rng.Intn(4)])
	case 10:
		return []int64{0, math.MaxInt64, math.MinInt64, rng.Int63()}[rng.Intn(4)]
	case 11:
		return randomDocument(rng, depth+1, false)
	default:
		a := types.MakeArray(0)
		for n := rng.Intn(4); n > 0; n-- {
			a.Append(randomValue(rng, depth+1))
		}
		return a
	}
}

func randomDocument(rng *rand.Rand, depth int, top bool) *types.Document {
	d := must.NotFail(types.NewDocument())
	n := rng.Intn(6)
	if top {
		n++
	}
	for ; n > 0; n-- {
		key := randomKey(rng)
		if top && n == 1 {
			key = "_id"
		}
		if !d.Has(key) {
			d.Set(key, randomValue(rng, depth))
		}
	}
	return d
}

// alterations of a text: a byte changed, a byte inserted, the text cut, white space added between tokens.
func alterations(rng *rand.Rand, b []byte) [][]byte {
	alphabet := []byte(`{}[],:"\ 0-9.eEtnul`)
	out := [][]byte{}
	for n := 0; n < 4; n++ {
		i := rng.Intn(len(b))
		c := alphabet[rng.Intn(len(alphabet))]
		changed := bytes.Clone(b)
		changed[i] = c
		inserted := append(append(bytes.Clone(b[:i]), c), b[i:]...)
		out = append(out, changed, inserted, bytes.Clone(b[:i]))
	}
	spaced := strings.NewReplacer(`,"`, ", \"", `":`, "\" :\n").Replace(string(b))
	return append(out, []byte(spaced))
}
