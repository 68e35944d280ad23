"""What a job manifest says, read once and defensively: :mod:`.job` (the object, its NPU layout and hardware
signals), :mod:`.pods` (its pod sets, containers and the NPUs they ask for), :mod:`.values` (the readers they
share), :mod:`.quantity` (resource quantities as exact numbers).  lint, ``import`` and the cluster commands read jobs here, and nowhere else.
"""
