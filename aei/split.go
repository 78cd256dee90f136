package aei

import (
	"errors"
	"strings"
)

// SplitCommand splits a command line into its words as a POSIX shell would,
// without expanding anything: words are separated by unquoted blanks; single
// quotes keep everything up to the next single quote; double quotes keep
// everything up to the next unescaped double quote, where a backslash escapes
// only \, ", $ and `; elsewhere a backslash escapes the next character. So
// `./bot -weights 'my gen 3.json'` gives ./bot, -weights and my gen 3.json.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("command ends with a backslash")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
