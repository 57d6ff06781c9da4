"""A tiny browser for Flask's test client: find a page's forms and submit them as a browser
would (hidden fields such as the CSRF token and prompt_token included)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import Any


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    selects: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # name -> (value, label)
    textareas: set[str] = field(default_factory=set)
    buttons: dict[str, list[str]] = field(default_factory=dict)  # name -> values of its submit buttons

    def submit(self, client, page_url: str, follow: bool = False, **values: Any):
        """POST the form; `follow` follows a redirect as a browser would (post/redirect/get)."""
        data = dict(self.fields)
        for name, options in self.selects.items():
            data.setdefault(name, options[0][0] if options else "")
        data.update({k: v for k, v in values.items() if v is not None})
        url = self.action or page_url
        return client.post(url, data=data, follow_redirects=follow)

    def option_value(self, select: str, label: str) -> str:
        for value, text in self.selects[select]:
            if text == label:
                return value
        raise AssertionError(f"no option {label!r} in {[t for _, t in self.selects[select]]}")


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._option: list[str] | None = None
        self._option_value: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get").lower())
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self._form.fields[a["name"]] = a.get("value", "on" if kind == "checkbox" else "")
        elif tag == "select":
            self._select = a.get("name")
            self._form.selects[self._select] = []
        elif tag == "option" and self._select:
            self._option = []
            self._option_value = a.get("value")
            if "selected" in a:
                self._form.fields[self._select] = a.get("value", "")
        elif tag == "button" and a.get("name"):
            self._form.buttons.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "textarea" and a.get("name"):
            self._form.textareas.add(a["name"])
            self._form.fields[a["name"]] = ""

    def handle_data(self, data):
        if self._option is not None:
            self._option.append(data)

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None and self._select:
            label = "".join(self._option).strip()
            value = self._option_value if self._option_value is not None else label
            self._form.selects[self._select].append((value, label))
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


def forms_of(html: str) -> list[Form]:
    p = _FormParser()
    p.feed(html)
    return p.forms


def text_of(html: str) -> str:
    """The visible text of a page, whitespace collapsed (for assertions on wording)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()
