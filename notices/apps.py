from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Email notices"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from leagues.models import AuditEntry
        from notices.notices import on_audit_entry

        post_save.connect(on_audit_entry, sender=AuditEntry, dispatch_uid="notices.audit")
