"""spark-submit's entry point for relurl_spark.links (ship the package with --py-files)."""

import sys

from relurl_spark.links import main

sys.exit(main())
