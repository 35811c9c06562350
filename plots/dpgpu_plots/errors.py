"""The error the command reports as a one-line message with exit status 2."""


class PlotError(Exception):
    """A problem with the input (a missing file, no plottable rows, a bad option).

    The message should name the file or option it is about; the command prints it as
    ``dpgpu_plot: <message>`` and exits with status 2.
    """

    exit_status = 2
