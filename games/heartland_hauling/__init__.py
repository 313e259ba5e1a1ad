"""The Great Heartland Hauling Co. (Dice Hate Me Games, 2013): rules, components, report, bot."""
