package report

import (
	"strings"
)

// Escaping for Slack mrkdwn. Slack reads "&", "<" and ">" as control
// characters and asks for them as &amp; &lt; &gt; (only those: other
// entities are shown as typed). Its formatting (*bold*, _italic_,
// ~strike~, `code`, :emoji:, @mentions) has no escape at all; only a code
// span shows its content as typed. So text from a dump is written as
// plain text when it holds no formatting character, and as a code span
// when it does.

// slackEntities escapes Slack's three control characters; control
// characters become spaces.
func slackEntities(s string) string {
	if !needsEscape(s, "&<>") {
		return s
	}
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(oneLine(s))
}

// slackCode renders s as a code span. A backtick cannot be escaped inside
// one: it is shown as "ˋ" (U+02CB). A blank s gives "".
func slackCode(s string) string {
	s = oneLine(s)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "`" + slackEntities(strings.ReplaceAll(s, "`", "ˋ")) + "`"
}

// slackNeedsCode reports whether a word would be read as formatting: it
// holds one of * _ ~ ` or starts a mention, or is an :emoji: code.
func slackNeedsCode(w string) bool {
	if strings.ContainsAny(w, "*_~`") || strings.HasPrefix(w, "@") || strings.HasPrefix(w, "!") {
		return true
	}
	return hasEmojiCode(w)
}

// hasEmojiCode reports whether w holds ":name:" with a letter in name
// (":fire:", ":+1:" is left: it needs no letter, and no dump writes it).
func hasEmojiCode(w string) bool {
	for {
		i := strings.IndexByte(w, ':')
		if i < 0 {
			return false
		}
		w = w[i+1:]
		j := strings.IndexByte(w, ':')
		if j < 0 {
			return false
		}
		name := w[:j]
		letter := false
		ok := name != ""
		for _, r := range name {
			switch {
			case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
				letter = true
			case r >= '0' && r <= '9' || r == '_' || r == '-' || r == '+' || r == '\'':
			default:
				ok = false
			}
		}
		if ok && letter {
			return true
		}
	}
}

// slackText escapes a sentence: each word that Slack would format goes in
// a code span, the rest is plain text with its entities escaped.
func slackText(s string) string {
	if !needsEscape(s, "&<>*_~`@!:") {
		return s // nothing Slack would format: the hot path, most pieces
	}
	words := strings.Split(oneLine(s), " ")
	for i, w := range words {
		if slackNeedsCode(w) {
			// The sentence's punctuation around a word stays outside its
			// code span ("(`label#1`," not "`(label#1,`"), where the word
			// still needs the span without it (":fire:" keeps its colons).
			core := strings.TrimLeft(w, "([\"'")
			lead := w[:len(w)-len(core)]
			core = strings.TrimRight(core, ".,;:)]\"'")
			trail := w[len(lead)+len(core):]
			if core != "" && slackNeedsCode(core) {
				words[i] = slackEntities(lead) + slackCode(core) + slackEntities(trail)
			} else {
				words[i] = slackCode(w)
			}
		} else {
			words[i] = slackEntities(w)
		}
	}
	return strings.Join(words, " ")
}
