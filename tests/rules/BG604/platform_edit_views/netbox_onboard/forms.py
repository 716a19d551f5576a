from django import forms
from django.db import transaction
from django_rq import get_queue

from netbox_onboard.models import OnboardingTask


class OnboardingTaskForm(forms.ModelForm):
    class Meta:
        model = OnboardingTask
        fields = ("address",)

    def save(self, commit=True):
        task = super().save(commit=commit)
        transaction.on_commit(lambda: get_queue("default").enqueue("netbox_onboard.worker.onboard", task.pk))
        return task


class OnboardingTaskCSVForm(forms.ModelForm):
    class Meta:
        model = OnboardingTask
        fields = ("address",)

    def save(self, commit=True):
        task = super().save(commit=commit)
        get_queue("default").enqueue("netbox_onboard.worker.onboard", task.pk)  # error: BG604
        return task


class LogExportForm(forms.Form):
    def save(self):
        get_queue("default").enqueue("netbox_onboard.worker.export_logs")
