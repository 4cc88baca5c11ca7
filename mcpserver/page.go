package mcpserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Lists answer in pages: at most limit items (MaxLimit at most) and at most
// PageBytes of JSON, and at least one item whatever its size (an item is
// bounded by the analysis itself: samples, a few frames). A page that does
// not end the list carries next_cursor; giving it back continues.
//
// A cursor is "offset.key", base64: the key is a hash of the query it was
// given for, so a cursor given to another query (another analysis, pool,
// moment) is refused rather than read as an offset into the wrong list.

// DefaultLimit and MaxLimit bound the items of a page.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// Page is where a page stands in its list.
type Page struct {
	Total      int    `json:"total" jsonschema:"items in the whole list"`
	Offset     int    `json:"offset" jsonschema:"index of this page's first item in the list"`
	NextCursor string `json:"next_cursor,omitempty" jsonschema:"give it back as cursor for the next page; absent on the last page"`
}

// queryKey names a query for its cursors.
func queryKey(parts ...string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.Join(parts, "\x00")))
	return strconv.FormatUint(uint64(h.Sum32()), 36)
}

func encodeCursor(offset int, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + "." + key))
}

// decodeCursor is the offset cursor stands for in a list of total items
// of the query key; 0 for "".
func decodeCursor(cursor, key string, total int) (int, error) {
	if cursor == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, fmt.Errorf("cursor %q is not one this server gave: give back next_cursor as it came", cursor)
	}
	off, k, ok := strings.Cut(string(b), ".")
	n, err := strconv.Atoi(off)
	if !ok || err != nil || n < 0 {
		return 0, fmt.Errorf("cursor %q is not one this server gave: give back next_cursor as it came", cursor)
	}
	if k != key {
		return 0, fmt.Errorf("cursor %q belongs to another list: give it with the same arguments it came with", cursor)
	}
	if n >= total && !(n == 0 && total == 0) {
		return 0, fmt.Errorf("cursor past the end: the list has %d items, the cursor points at item %d", total, n)
	}
	return n, nil
}

// paginate is the page of items at cursor: as many as limit and the byte
// bound allow, and the page's place.
func paginate[T any](items []T, cursor, key string, limit, maxBytes int) ([]T, Page, error) {
	off, err := decodeCursor(cursor, key, len(items))
	if err != nil {
		return nil, Page{}, err
	}
	if limit < 0 {
		return nil, Page{}, fmt.Errorf("limit %d: want 1 to %d (0: %d)", limit, MaxLimit, DefaultLimit)
	}
	if limit == 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	out := []T{}
	size := 0
	end := off
	for end < len(items) && len(out) < limit {
		b, err := json.Marshal(items[end])
		if err != nil {
			return nil, Page{}, err
		}
		if len(out) > 0 && size+len(b) > maxBytes {
			break
		}
		size += len(b) + 1
		out = append(out, items[end])
		end++
	}
	p := Page{Total: len(items), Offset: off}
	if end < len(items) {
		p.NextCursor = encodeCursor(end, key)
	}
	return out, p, nil
}
