from django.apps import AppConfig


class NightsConfig(AppConfig):
    name = "nights"

    def ready(self) -> None:
        from nights import pbn  # noqa: F401  (registers the PBN export format)
