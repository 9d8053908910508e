"""The one exception the engines raise for bad input."""


class IllegalAction(ValueError):
    """An action that breaks a rule; `code` is the rule id (e.g. "S10", "C7")."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type["IllegalAction"], tuple[str, str]]:
        return (IllegalAction, (self.code, self.message))
