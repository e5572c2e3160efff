// Nothing to call: see standard_descriptors.c, which runs before main.
