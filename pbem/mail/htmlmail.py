"""An HTML-only mail's text (pbem.mail.parse reads a mail that has no plain text part through it): the lines a
person sees, quoted blocks, scripts and styles left out. A module of its own, imported only for such a mail: the
HTML parser and its regular expressions are a part of a mail batch's start no other mail needs."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser


class _HtmlText(HTMLParser):
    """HTML to the lines a person sees: blocks and <br> break lines; quoted blocks, scripts and styles are dropped."""

    BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul", "ol", "hr",
             "section", "article", "header", "footer"}
    HIDDEN = {"script", "style", "head", "title", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.hidden = 0
        self.quote_tag: str | None = None  # the element that opened quoted text (blockquote, Gmail's quote div)
        self.quote_nest = 0
        self.pre = 0

    @staticmethod
    def _opens_quote(tag: str, attrs: dict) -> bool:
        return tag == "blockquote" or (tag == "div" and ("gmail_quote" in (attrs.get("class") or "")
                                                         or attrs.get("id") in ("divRplyFwdMsg", "appendonsend")))

    def handle_starttag(self, tag, attrs):
        if self.quote_tag:
            self.quote_nest += tag == self.quote_tag
            return
        if self._opens_quote(tag, dict(attrs)):
            self.quote_tag, self.quote_nest = tag, 1
            return
        if tag in self.HIDDEN:
            self.hidden += 1
        if tag in self.BLOCK:
            self.out.append("\n")
        if tag == "pre":
            self.pre += 1

    def handle_endtag(self, tag):
        if self.quote_tag:
            if tag == self.quote_tag:
                self.quote_nest -= 1
                if self.quote_nest == 0:
                    self.quote_tag = None
                    self.out.append("\n")
            return
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        if tag in self.BLOCK:
            self.out.append("\n")
        if tag == "pre":
            self.pre = max(0, self.pre - 1)

    def handle_startendtag(self, tag, attrs):
        if not self.quote_tag and tag in ("br", "hr"):
            self.out.append("\n")

    def handle_data(self, data):
        if self.hidden or self.quote_tag:
            return
        self.out.append(data if self.pre else re.sub(r"\s+", " ", data))


def html_to_text(markup: str) -> str:
    parser = _HtmlText()
    try:
        parser.feed(markup)
        parser.close()
    except Exception:  # malformed beyond repair: strip the tags
        return html.unescape(re.sub(r"<[^>]*>", " ", markup))
    lines = "".join(parser.out).replace("\xa0", " ").splitlines()
    return "\n".join(line.strip() for line in lines)
