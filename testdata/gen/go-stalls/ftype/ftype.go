// Package ftype tells a file's type from its first bytes, as a small
// file-type library does: magic numbers, then a walk over an ISO base
// media file's boxes (MP4, HEIF) to find its brand. Its box walk has the
// bug such libraries have had: a box whose size field is 0 is not "to the
// end of the file" here but a box of no length, and the walk never moves.
package ftype

import "encoding/binary"

// Match returns the type of buf: "png", "gif", "mp4", "heif" or "".
func Match(buf []byte) string {
	switch {
	case len(buf) > 8 && string(buf[1:4]) == "PNG":
		return "png"
	case len(buf) > 6 && string(buf[:3]) == "GIF":
		return "gif"
	}
	return isoBrand(buf)
}

// isoBrand walks the boxes of an ISO base media file for its ftyp box.
func isoBrand(buf []byte) string {
	off := 0
	for off+8 <= len(buf) {
		size, typ := boxHeader(buf, off)
		if typ == "ftyp" && off+12 <= len(buf) {
			switch string(buf[off+8 : off+12]) {
			case "heic", "mif1":
				return "heif"
			default:
				return "mp4"
			}
		}
		off += size // a size of 0 never moves the walk on
	}
	return ""
}

//go:noinline
func boxHeader(buf []byte, off int) (int, string) {
	return int(binary.BigEndian.Uint32(buf[off:])), string(buf[off+4 : off+8])
}
