"""``python -m slst.spark``: the job's command line (``slst.spark.job.main``)."""

import sys

from slst.spark.job import main

sys.exit(main())
