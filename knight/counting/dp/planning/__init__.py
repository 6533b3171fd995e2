"""This package plans the memory, the disk and the steps of the frontier DP's runs.

``memory_model`` turns a memory budget into the room a step gets and
projects a run's peak. ``state_forecast`` projects the states a run holds
from the measured curves in ``step_curves.json``. ``policy`` holds the
``StepPolicy`` that tells a run how to take its steps.
"""
