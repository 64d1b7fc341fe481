"""Random well-formed-ish YAML documents for tools/yaml-differential.py --generate.

Builds random trees and writes them with random styles (block/flow, plain,
quoted, literal/folded with indicators, multi-line scalars, comments,
varying indentation) so accepted-document paths get exercised far more than
corpus mutations do.
"""
import random

WORDS = ["a", "b c", "x:y", "1", "-3", "+7", "0x1F", "0o17", "1.5", "-.5", "1e3", ".inf", ".nan", "true",
         "False", "null", "~", "a#b", "http://h:80/p#f", "yes", "2024-06-01", "k v w", "-x", "?y", ":z",
         "caf\u00e9", "\u6771\u4eac", "\U0001F4F7", "a'b", 'a"b', "a - b", "007", "1.", "x[0]", "a,b", "e=mc2"]
QCHARS = ["a", " ", "'", '"', "\\", "#", ":", "\t", "\u00e9", "-", "x", "  "]
ESC = ["\\n", "\\t", "\\\\", '\\"', "\\x41", "\\u00e9", "\\U0001F600", "\\0", "\\e", "\\ ", "\\/", "\\_", "\\N"]


class Gen:
    def __init__(self, rng):
        self.r = rng

    def word(self):
        return self.r.choice(WORDS)

    def comment(self):
        return " # c" if self.r.random() < 0.15 else ""

    def single(self, cont_indent):
        body = "".join(self.r.choice(QCHARS) for _ in range(self.r.randint(0, 6))).replace("'", "''")
        if self.r.random() < 0.2:
            body += "\n" + "\n" * self.r.randint(0, 1) + " " * cont_indent + "more"
        return "'" + body + "'"

    def double(self, cont_indent):
        parts = []
        for _ in range(self.r.randint(0, 5)):
            if self.r.random() < 0.4:
                parts.append(self.r.choice(ESC))
            else:
                c = self.r.choice(QCHARS)
                parts.append({'"': '\\"', "\\": "\\\\"}.get(c, c))
        s = "".join(parts)
        if self.r.random() < 0.2:
            s += self.r.choice(["\n", "\\\n", "\n\n"]) + " " * cont_indent + "tail"
        return '"' + s + '"'

    def plain(self, cont_indent, flow=False):
        w = self.word()
        if flow:
            w = w.replace(":", "").replace(",", "").replace("[", "").replace("]", "") or "w"
            if w[0] in "?-":
                w = "w" + w
        if not flow and self.r.random() < 0.15:
            w += "\n" + "\n" * self.r.randint(0, 1) + " " * cont_indent + "cont"
        return w

    def block_scalar(self, parent_indent):
        ind = self.r.choice(["|", ">"])
        chomp = self.r.choice(["", "-", "+"])
        step = self.r.randint(1, 4)
        explicit = parent_indent >= 0 and self.r.random() < 0.3
        header = ind + (str(step) + chomp if explicit else chomp)
        content_indent = max(parent_indent, 0) + step if parent_indent >= 0 else step
        lines = []
        for _ in range(self.r.randint(0, 4)):
            kind = self.r.random()
            if kind < 0.2:
                lines.append("")
            elif kind < 0.35:
                lines.append(" " * (content_indent + self.r.randint(1, 2)) + "more")
            else:
                lines.append(" " * content_indent + self.r.choice(["text", "t # x", "a  b", "\u00e9", "- z", "k: v"]))
        if lines and lines[0] == "" and explicit is False:
            lines[0] = " " * content_indent + "first"
        return header + self.comment(), lines

    def flow(self, depth, parent_indent):
        if depth > 3 or self.r.random() < 0.4:
            c = self.r.random()
            if c < 0.6:
                return self.plain(0, flow=True)
            return self.single(parent_indent + 1) if c < 0.8 else self.double(parent_indent + 1)
        n = self.r.randint(0, 3)
        sep = self.r.choice([", ", ",", " , ", ",\n" + " " * (parent_indent + 2)])
        if self.r.random() < 0.5:
            return "[" + sep.join(self.flow(depth + 1, parent_indent) for _ in range(n)) + "]"
        keys = ["k%d" % i for i in range(n)]
        return "{" + sep.join("%s: %s" % (k, self.flow(depth + 1, parent_indent)) for k in keys) + "}"

    def inline_value(self, parent_indent, depth):
        """A value on the same line; returns (text, extra_lines)."""
        c = self.r.random()
        if c < 0.4:
            return self.plain(parent_indent + 1), []
        if c < 0.55:
            return self.single(parent_indent + 1), []
        if c < 0.7:
            return self.double(parent_indent + 1), []
        if c < 0.85:
            return self.flow(depth, parent_indent), []
        return self.block_scalar(parent_indent)

    def block(self, indent, depth):
        """Lines of a block collection at column `indent`."""
        lines = []
        if self.r.random() < 0.5 or depth > 4:
            keys = ["key%d" % i for i in range(self.r.randint(1, 4))]
            if self.r.random() < 0.2:
                keys[0] = self.r.choice(["'q k'", '"d k"', "1", "k k", "0x10"])
            for k in keys:
                lines.extend(self.entry(indent, k + ":", depth, mapping=True))
        else:
            for _ in range(self.r.randint(1, 4)):
                lines.extend(self.entry(indent, "-", depth, mapping=False))
        if self.r.random() < 0.2:
            lines.insert(self.r.randint(0, len(lines)), " " * self.r.randint(0, indent + 2) + "# note")
        return lines

    def entry(self, indent, lead, depth, mapping):
        pad = " " * indent
        c = self.r.random()
        if depth < 5 and c < 0.35:
            child = indent + self.r.randint(1, 4)
            if mapping and self.r.random() < 0.3:
                sub = self.block(indent, depth + 1)
                if sub and sub[0].lstrip().startswith("-"):
                    return [pad + lead + self.comment()] + sub
            return [pad + lead + self.comment()] + self.block(child, depth + 1)
        if not mapping and depth < 5 and c < 0.5:
            sub = self.block(indent + 2, depth + 1)
            first = sub[0]
            if first.startswith(" " * (indent + 2)) and not first.lstrip().startswith("#"):
                return [pad + "- " + first[indent + 2:]] + sub[1:]
        if c < 0.55:
            return [pad + lead + self.comment()]
        text, extra = self.inline_value(indent, depth)
        return [pad + lead + " " + text + ("" if extra or "\n" in text else self.comment())] + extra


def document(rng):
    g = Gen(rng)
    lines = g.block(rng.choice([0, 0, 0, 1, 2]), 0)
    if rng.random() < 0.1:
        lines.insert(0, "---")
    if rng.random() < 0.1:
        lines.append("...")
    return ("\n".join(lines) + "\n").encode("utf-8")
