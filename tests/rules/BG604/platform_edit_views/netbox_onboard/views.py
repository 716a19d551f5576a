from netbox.views import generic

from netbox_onboard.forms import OnboardingTaskCSVForm, OnboardingTaskForm
from netbox_onboard.models import OnboardingTask


class OnboardingTaskEditView(generic.ObjectEditView):
    queryset = OnboardingTask.objects.all()
    form = OnboardingTaskForm


class OnboardingTaskBulkImportView(generic.BulkImportView):
    queryset = OnboardingTask.objects.all()
    model_form = OnboardingTaskCSVForm
